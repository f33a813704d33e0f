import type { BlockOf } from '@portal/contracts/content';
import type { TotpEnrolment } from '@portal/contracts/sign-in-methods';
// Types only: the library is loaded with import() when a set-up starts (see loadQrCode).
import type * as QrCodeLibrary from 'qrcode';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { SummaryRow } from '../../../components/ui/summary-row';
import { TextField } from '../../../components/ui/text-field';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { ApiError } from '../../../lib/api-client';
import { formatLongDate } from '../../../lib/format';
import { useCurrentUser } from '../../../session/tokens';
import { activateTotp } from '../api/activate-totp';
import { enrolTotp } from '../api/enrol-totp';
import { removeSignInMethod } from '../api/remove-sign-in-method';
import { useSignInMethods } from '../use-sign-in-methods';
import { ReauthenticationCancelled, useReauthenticate } from '../reauthenticate';

type Block = BlockOf<'authenticatorApp'>;

/** The base32 key in groups of four, as apps ask for it to be typed. */
export const groupedKey = (key: string) => key.match(/.{1,4}/g)?.join(' ') ?? key;

let qrCodeLibrary: Promise<typeof QrCodeLibrary> | undefined;

/**
 * The QR code library (about 7 KB compressed), fetched when a customer starts setting the app up, beside
 * the enrolment call, rather than by every visit to the page (issue 27). A failed download is tried again
 * next time.
 */
function loadQrCode(): Promise<typeof QrCodeLibrary> {
  qrCodeLibrary ??= import('qrcode').catch((error: unknown) => {
    qrCodeLibrary = undefined;
    throw error;
  });
  return qrCodeLibrary;
}

/** The QR code of the otpauth:// URI, drawn here (no image service ever sees the key). */
function QrCode({ uri, alt }: { uri: string; alt: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadQrCode()
      .then((qrCode) => qrCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then(
        (drawn) => {
          if (live) setSvg(drawn);
        },
        // Without the library (offline for a moment) the key below is the way to set the app up.
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [uri]);
  if (!svg) return null;
  return (
    <img
      className="qr-code"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={alt}
      width={200}
      height={200}
    />
  );
}

function SetUpPanel({
  block,
  customerId,
  enrolment,
  onDone,
  onCancel,
}: {
  block: Block;
  customerId: string;
  enrolment: TotpEnrolment;
  onDone: () => void;
  onCancel: () => void;
}) {
  const settings = useSiteSettings();
  const texts = block.setUp;
  const heading = useRef<HTMLHeadingElement>(null);
  const [code, setCode] = useState('');
  const [revealed, setRevealed] = useState(false);
  const [failure, setFailure] = useState<'wrong' | 'locked' | 'other' | null>(null);
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const digits = code.replace(/\s/g, '');
  const valid = /^\d{6}$/.test(digits);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (!valid) {
      setRevealed(true);
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await activateTotp(customerId, enrolment.id, digits);
      onDone();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      setFailure(status === 400 ? 'wrong' : status === 429 ? 'locked' : 'other');
      setBusy(false);
      codeInput.current?.focus();
    }
  };

  const codeError =
    failure === 'wrong' ? (
      <RichText html={texts.wrongCodeMessage} />
    ) : revealed && !valid ? (
      texts.codeErrorMessage
    ) : null;

  return (
    <div className="sign-in-method-panel">
      <h3 ref={heading} tabIndex={-1}>
        {texts.heading}
      </h3>
      <RichText html={texts.scanBody} />
      <QrCode uri={enrolment.otpauthUri} alt={texts.qrCodeAlt} />
      <RichText html={texts.keyIntro} />
      <dl className="summary-list">
        <SummaryRow label={texts.keyLabel}>
          <code className="totp-key">{groupedKey(enrolment.key)}</code>
        </SummaryRow>
      </dl>
      <form noValidate onSubmit={(event) => void submit(event)}>
        {(failure === 'locked' || failure === 'other') && (
          <div role="alert">
            <RichText
              html={failure === 'locked' ? texts.lockedMessage : texts.errorMessage}
              className="message message--error"
            />
          </div>
        )}
        <TextField
          ref={codeInput}
          id={`${block.id}-code`}
          label={texts.codeLabel}
          hint={texts.codeHint}
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
          maxLength={7}
          width={10}
          value={code}
          onChange={(value) => {
            setCode(value);
            if (failure === 'wrong') setFailure(null);
          }}
          error={codeError}
        />
        <div className="cta-list">
          <Button type="submit" submitting={busy} submittingText={settings.commonTexts['loading']}>
            {texts.submitText}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            {texts.cancelText}
          </Button>
        </div>
      </form>
    </div>
  );
}

/**
 * The authenticator app (issue 25, decision 023): what it is, whether it is set up (when, last used), and
 * setting it up: a key from the server, its QR code drawn here and the key in groups of four for typing,
 * then the app's first code to confirm it. Set up again replaces the app once the new one is confirmed;
 * Remove asks first. Changes need a recent sign-in (the password dialog of reauthenticate.tsx).
 */
function AuthenticatorAppBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const { methods, refresh } = useSignInMethods(customerId);
  const { guarded, dialog } = useReauthenticate(customerId, block.reauthenticate);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [message, setMessage] = useState<'added' | 'removed' | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [removeFailed, setRemoveFailed] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const status = useRef<HTMLDivElement>(null);

  if (!customerId) return null;
  const headingId = `${block.id}-heading`;
  const app = methods.data?.find((m) => m.type === 'totp' && m.status === 'ACTIVE');

  const startSetUp = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    setMessage(null);
    // The QR code's library downloads while the customer confirms their password and the key is made.
    loadQrCode().catch(() => undefined);
    try {
      setEnrolment(await guarded(() => enrolTotp(customerId)));
    } catch (error) {
      if (!(error instanceof ReauthenticationCancelled)) setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!app || busy) return;
    // The confirmation closes first: the password dialog, if the server asks for it, is the only one open.
    setConfirmRemove(false);
    setBusy(true);
    setRemoveFailed(false);
    setMessage(null);
    try {
      await guarded(() => removeSignInMethod(customerId, app.id));
      setMessage('removed');
      await refresh();
      status.current?.focus();
    } catch (error) {
      if (!(error instanceof ReauthenticationCancelled)) setRemoveFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="content-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      <div aria-live="polite" ref={status} tabIndex={-1}>
        {message === 'added' && <RichText html={block.successMessage} className="message message--success" />}
        {message === 'removed' && (
          <RichText html={block.removedMessage} className="message message--success" />
        )}
      </div>
      {(failed || removeFailed) && (
        <div role="alert">
          <RichText
            html={failed ? block.setUp.errorMessage : block.remove.errorMessage}
            className="message message--error"
          />
        </div>
      )}
      {methods.isPending ? (
        <p className="block-loading">{block.loadingText}</p>
      ) : methods.isError ? (
        <RichText html={block.loadErrorMessage} className="message message--error" />
      ) : (
        <dl className="summary-list">
          <SummaryRow label={block.statusLabel}>
            {app
              ? fillPlaceholders(block.setUpOnText, {
                  date: formatLongDate(app.addedAt ?? app.lastUsedAt ?? ''),
                })
              : block.notSetUpText}
          </SummaryRow>
          {app && (
            <SummaryRow label={block.lastUsedLabel}>
              {app.lastUsedAt ? formatLongDate(app.lastUsedAt) : block.neverUsedText}
            </SummaryRow>
          )}
        </dl>
      )}
      {enrolment ? (
        <SetUpPanel
          block={block}
          customerId={customerId}
          enrolment={enrolment}
          onDone={() => {
            setEnrolment(null);
            setMessage('added');
            void refresh();
            status.current?.focus();
          }}
          onCancel={() => {
            setEnrolment(null);
            opener.current?.focus();
          }}
        />
      ) : (
        methods.isSuccess && (
          <div className="cta-list">
            <Button
              ref={opener}
              variant={app ? 'secondary' : 'primary'}
              submitting={busy}
              submittingText={block.loadingText}
              onClick={() => void startSetUp()}
            >
              {app ? block.replaceText : block.setUpText}
            </Button>
            {app && (
              <Button variant="secondary" onClick={() => setConfirmRemove(true)}>
                {block.removeText}
              </Button>
            )}
          </div>
        )
      )}
      {confirmRemove && (
        <Modal
          open
          title={block.remove.heading}
          onClose={() => setConfirmRemove(false)}
          closeLabel={block.remove.cancelText}
        >
          <RichText html={block.remove.body} />
          <div className="cta-list">
            <Button variant="warning" onClick={() => void remove()}>
              {block.remove.confirmText}
            </Button>
            <Button variant="secondary" onClick={() => setConfirmRemove(false)}>
              {block.remove.cancelText}
            </Button>
          </div>
        </Modal>
      )}
      {dialog}
    </section>
  );
}

export default AuthenticatorAppBlock;
