import type { ReauthenticationTexts } from '@portal/contracts/content';
import { REAUTHENTICATION_REQUIRED } from '@portal/contracts/sign-in-methods';
import { useCallback, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { PasswordField } from '../../components/ui/password-field';
import { RichText } from '../../content/rich-text';
import { useSiteSettings } from '../../content/use-site-settings';
import { ApiError } from '../../lib/api-client';
import { confirmPassword } from './api/confirm-password';

/** The customer closed the password dialog instead of confirming: the change did not happen. */
export class ReauthenticationCancelled extends Error {
  override name = 'ReauthenticationCancelled';
}

/** True for the 403 a guarded change answers when the session must confirm its password first. */
function needsReauthentication(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 403 &&
    typeof error.body === 'object' &&
    error.body !== null &&
    (error.body as { code?: unknown }).code === REAUTHENTICATION_REQUIRED
  );
}

interface Pending {
  retry: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs a change that needs a recent sign-in (adding or removing a sign-in method, new backup codes). When
 * the server answers 403 REAUTHENTICATION_REQUIRED, a dialog asks for the password; once the password is
 * confirmed the change is made again and `guarded` settles with its answer. Closing the dialog rejects with
 * ReauthenticationCancelled. Render `dialog` somewhere in the block.
 */
export function useReauthenticate(
  customerId: string | undefined,
  texts: ReauthenticationTexts,
): {
  guarded: <T>(change: () => Promise<T>) => Promise<T>;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);

  const guarded = useCallback(async <T,>(change: () => Promise<T>): Promise<T> => {
    try {
      return await change();
    } catch (error) {
      if (!needsReauthentication(error)) throw error;
      return new Promise<T>((resolve, reject) => {
        const next: Pending = { retry: change, resolve: resolve as (value: unknown) => void, reject };
        pendingRef.current = next;
        setPending(next);
      });
    }
  }, []);

  const close = (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    if (!current) return;
    if (outcome.ok) current.resolve(outcome.value);
    else current.reject(outcome.error);
  };

  const dialog =
    pending && customerId ? (
      <ConfirmPasswordDialog
        customerId={customerId}
        texts={texts}
        onConfirmed={async () => {
          try {
            close({ ok: true, value: await pending.retry() });
          } catch (error) {
            close({ ok: false, error });
          }
        }}
        onCancel={() => close({ ok: false, error: new ReauthenticationCancelled() })}
      />
    ) : null;

  return { guarded, dialog };
}

function ConfirmPasswordDialog({
  customerId,
  texts,
  onConfirmed,
  onCancel,
}: {
  customerId: string;
  texts: ReauthenticationTexts;
  onConfirmed: () => Promise<void>;
  onCancel: () => void;
}) {
  const settings = useSiteSettings();
  const [password, setPassword] = useState('');
  const [revealed, setRevealed] = useState(false);
  const [failure, setFailure] = useState<'password' | 'other' | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (password === '') {
      setRevealed(true);
      field.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await confirmPassword(customerId, password);
    } catch (error) {
      setFailure(error instanceof ApiError && error.status === 400 ? 'password' : 'other');
      setBusy(false);
      field.current?.focus();
      return;
    }
    await onConfirmed();
  };

  const error =
    failure === 'password' ? (
      <RichText html={texts.passwordErrorMessage} />
    ) : revealed && password === '' ? (
      texts.passwordRequiredMessage
    ) : null;

  return (
    <Modal
      open
      title={texts.heading}
      onClose={onCancel}
      closeLabel={texts.cancelText}
      initialFocusRef={field}
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <RichText html={texts.body} />
        {failure === 'other' && (
          <div role="alert">
            <RichText html={texts.errorMessage} className="message message--error" />
          </div>
        )}
        <PasswordField
          ref={field}
          id="reauthenticate-password"
          label={texts.passwordLabel}
          autoComplete="current-password"
          value={password}
          onChange={(value) => {
            setPassword(value);
            if (failure === 'password') setFailure(null);
          }}
          error={error}
          showText={settings.commonTexts['showPassword']}
          hideText={settings.commonTexts['hidePassword']}
          showLabel={settings.commonTexts['showPasswordLabel']}
          hideLabel={settings.commonTexts['hidePasswordLabel']}
        />
        <div className="cta-list">
          <Button type="submit" submitting={busy} submittingText={settings.commonTexts['loading']}>
            {texts.confirmText}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            {texts.cancelText}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
