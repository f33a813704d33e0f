import type { BlockOf } from '@portal/contracts/content';
import type { SignInSession } from '@portal/contracts/sign-in-sessions';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { SummaryRow } from '../../../components/ui/summary-row';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useAppQueryClient } from '../../../session/query-client';
import { useCurrentUser } from '../../../session/tokens';
import { endOtherSignInSessions } from '../api/end-other-sign-in-sessions';
import { endSignInSession } from '../api/end-sign-in-session';
import { signInSessionsQuery } from '../api/sign-in-sessions';
import { formatPasswordDate } from '../password-date';

type Block = BlockOf<'signInSessions'>;

/** "Last used" this recently reads "Just now" (the server moves it on at most once a minute). */
const JUST_NOW_MS = 2 * 60_000;

/** "Chrome on Windows", with the content's words for what could not be told. */
function deviceName(block: Block, session: SignInSession): string {
  return fillPlaceholders(block.deviceText, {
    browser: session.browser ?? block.unknownBrowserText,
    os: session.os ?? block.unknownSystemText,
  });
}

/**
 * Where you're signed in (issue 26, decision 025): every live sign-in session of the customer, this
 * device first and marked, with a sign-out button for each other one and one for every other device.
 * Signing out needs no password again (it protects the customer). The outcome is announced in a polite
 * live region, which takes the focus, as the button pressed is gone with the session it signed out.
 */
function SignInSessionsBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const queryClient = useAppQueryClient();
  const query = signInSessionsQuery(customerId ?? 'none');
  const sessions = useQuery({ ...query, enabled: !!customerId }, queryClient);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const status = useRef<HTMLDivElement>(null);

  if (!customerId) return null;
  const headingId = `${block.id}-heading`;
  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.thisDevice) - Number(a.thisDevice));
  const others = list.filter((s) => !s.thisDevice);

  const signOut = async (key: string, work: () => Promise<string>) => {
    if (busy) return;
    setBusy(key);
    setFailed(false);
    setOutcome(null);
    try {
      const message = await work();
      await queryClient.invalidateQueries({ queryKey: query.queryKey });
      setOutcome(message);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
      status.current?.focus();
    }
  };

  // Measured from when the list was read, so a render does not change it.
  const lastUsed = (session: SignInSession) =>
    sessions.dataUpdatedAt - Date.parse(session.lastUsedAt) < JUST_NOW_MS
      ? block.justNowText
      : (formatPasswordDate(session.lastUsedAt) ?? '');

  return (
    <section className="content-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <div aria-live="polite" ref={status} tabIndex={-1}>
        {outcome && <RichText html={outcome} className="message message--success" />}
        {failed && <RichText html={block.errorMessage} className="message message--error" />}
      </div>
      {sessions.isPending ? (
        <p className="block-loading">{block.loadingText}</p>
      ) : sessions.isError ? (
        <div role="alert">
          <RichText html={block.loadErrorMessage} className="message message--error" />
        </div>
      ) : (
        <>
          <ul className="passkeys__list" aria-labelledby={headingId}>
            {list.map((session) => {
              const signedIn = formatPasswordDate(session.signedInAt) ?? '';
              // The contact centre looking, read only (issue 41 point 6): said so, and stopped from here.
              const viewer = session.viewer;
              const name =
                viewer !== undefined
                  ? fillPlaceholders(block.viewerText ?? 'Our contact centre: {name}', { name: viewer })
                  : deviceName(block, session);
              return (
                <li key={session.id} className="passkeys__item">
                  <h3 className="passkeys__name">
                    {name}
                    {session.thisDevice && (
                      <>
                        {' '}
                        <strong className="tag">{block.thisDeviceText}</strong>
                      </>
                    )}
                  </h3>
                  {viewer !== undefined && block.viewerBody && <RichText html={block.viewerBody} />}
                  <dl className="summary-list">
                    <SummaryRow label={block.signedInLabel}>{signedIn}</SummaryRow>
                    <SummaryRow label={block.lastUsedLabel}>{lastUsed(session)}</SummaryRow>
                    <SummaryRow label={block.networkLabel}>
                      {session.network ?? block.unknownNetworkText}
                    </SummaryRow>
                  </dl>
                  {!session.thisDevice && (
                    <div className="cta-list">
                      <Button
                        variant="secondary"
                        aria-label={
                          viewer !== undefined && block.stopViewingText
                            ? `${block.stopViewingText}: ${name}`
                            : fillPlaceholders(block.signOutLabel, { device: name, signedIn })
                        }
                        submitting={busy === session.id}
                        submittingText={block.loadingText}
                        onClick={() =>
                          void signOut(session.id, async () => {
                            await endSignInSession(customerId, session.id);
                            return fillPlaceholders(block.signedOutMessage, { device: name });
                          })
                        }
                      >
                        {viewer !== undefined
                          ? (block.stopViewingText ?? block.signOutText)
                          : block.signOutText}
                      </Button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          {others.length === 0 ? (
            <p>{block.noOthersText}</p>
          ) : (
            <div className="cta-list">
              <Button
                variant="warning"
                submitting={busy === 'others'}
                submittingText={block.loadingText}
                onClick={() =>
                  void signOut('others', async () => {
                    const { ended } = await endOtherSignInSessions(customerId);
                    return fillPlaceholders(block.signedOutOthersMessage, { count: ended });
                  })
                }
              >
                {block.signOutOthersText}
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export default SignInSessionsBlock;
