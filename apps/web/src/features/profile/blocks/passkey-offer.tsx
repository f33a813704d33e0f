import type { BlockOf } from '@portal/contracts/content';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { NotificationBanner } from '../../../components/ui/notification-banner';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { takePostLoginPath } from '../../../session/post-login';
import { useCurrentUser } from '../../../session/tokens';
import { declinePasskeyOffer } from '../api/decline-passkey-offer';
import { createPasskey } from '../create-passkey';
import { ReauthenticationCancelled, useReauthenticate } from '../reauthenticate';

type Block = BlockOf<'passkeyOffer'>;

/**
 * The offer to set up a passkey, the last step of a new registration's first sign-in (issue 25 point 5):
 * what a passkey is in plain words, "Set up a passkey" (the browser asks for the device's lock; the passkey
 * gets the content's name, renamed later in the profile) and "Not now" (the server keeps the offer away
 * for 30 days). Then on to the dashboard, or the page kept from before sign-in. A refused or closed prompt
 * says so and leaves both choices open.
 */
function PasskeyOfferBlock({ block }: { block: Block }) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const [supported, setSupported] = useState<boolean | null>(null);
  const [busy, setBusy] = useState<'add' | 'decline' | null>(null);
  const [added, setAdded] = useState(false);
  const [failed, setFailed] = useState(0);
  const left = useRef(false);
  const { guarded, dialog } = useReauthenticate(customerId, block.reauthenticate);
  const headingId = `${block.id}-heading`;

  useEffect(() => {
    let live = true;
    void import('@simplewebauthn/browser')
      .then(({ browserSupportsWebAuthn }) => live && setSupported(browserSupportsWebAuthn()))
      .catch(() => live && setSupported(false));
    return () => {
      live = false;
    };
  }, []);

  const goOn = () => {
    if (left.current) return;
    left.current = true;
    navigate(takePostLoginPath(settings.dashboardPage), { replace: true });
  };

  const setUp = async () => {
    if (!customerId || busy) return;
    setBusy('add');
    try {
      await createPasskey(customerId, block.defaultName, guarded);
      setAdded(true);
    } catch (error) {
      if (!(error instanceof ReauthenticationCancelled)) setFailed((n) => n + 1);
    } finally {
      setBusy(null);
    }
  };

  const notNow = async () => {
    if (!customerId || busy) return;
    setBusy('decline');
    // Not saved (the service is down): the offer may come back at the next sign-in; nothing else is lost.
    await declinePasskeyOffer(customerId).catch(() => undefined);
    goOn();
  };

  return (
    <section aria-labelledby={headingId} className="passkey-offer">
      <h2 id={headingId}>{block.heading}</h2>
      {added ? (
        <>
          <NotificationBanner variant="success">
            <RichText html={block.addedMessage} />
          </NotificationBanner>
          <Button onClick={goOn}>{block.continueText}</Button>
        </>
      ) : (
        <>
          {failed > 0 && (
            <NotificationBanner key={failed} variant="important" focusOnMount>
              <RichText html={block.addFailedMessage} />
            </NotificationBanner>
          )}
          <RichText html={block.intro} />
          {supported === false ? (
            <>
              <RichText html={block.notSupportedText} className="inset-text" />
              <Button onClick={goOn}>{block.continueText}</Button>
            </>
          ) : (
            <div className="cta-list">
              <Button
                onClick={() => void setUp()}
                disabled={supported === null}
                submitting={busy === 'add'}
                submittingText={settings.commonTexts['loading']}
              >
                {block.setUpText}
              </Button>
              <Button
                variant="secondary"
                onClick={() => void notNow()}
                submitting={busy === 'decline'}
                submittingText={settings.commonTexts['loading']}
              >
                {block.notNowText}
              </Button>
            </div>
          )}
          <RichText html={block.laterText} />
        </>
      )}
      {dialog}
    </section>
  );
}

export default PasskeyOfferBlock;
