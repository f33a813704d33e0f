import type { PageContent } from '@portal/contracts/content';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { TextField } from '../../../components/ui/text-field';
import { useSiteSettings } from '../../../content/use-site-settings';
import { verifyFactorCode } from '../../../session/api/factor-verify';
import { identityFailureOf } from '../../../session/api/identity-failure';
import { completeSignIn } from '../../../session/sign-in';
import { signOut } from '../../../session/sign-out';
import { prefetchTokenClient } from '../../../session/tokens';
import { pageMessage, plainText, type MessageKey } from '../utils/page-messages';
import { prefetchSignedInCode } from '../prefetch-signed-in';
import { ProblemAlert } from './problem-alert';

/** A backup code as typed: case, spaces and dashes do not matter. Null unless it has 8 letters or digits. */
function backupCodeOf(typed: string): string | null {
  const bare = typed.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z0-9]{8}$/.test(bare) ? `${bare.slice(0, 4)}-${bare.slice(4)}` : null;
}

/** Six digits (spaces allowed, as some apps show "123 456"). */
function appCodeOf(typed: string): string | null {
  const bare = typed.replace(/\s/g, '');
  return /^\d{6}$/.test(bare) ? bare : null;
}

/**
 * The code of a factor that sends nothing (issue 25): the authenticator app's current code or one of the
 * backup codes, checked by the provider straight from MFA_REQUIRED. A wrong code says so and keeps what was
 * typed; wrong codes count towards the account's lockout like any other, and the locked account's
 * transaction ends (the lockout message, then back to the start), as on the challenge page.
 */
export function AuthenticatorCodeForm({
  page,
  kind,
  factorId,
  stateToken,
  onBack,
}: {
  page: PageContent;
  kind: 'totp' | 'backup_code';
  factorId: string;
  stateToken: string;
  onBack: () => void;
}) {
  const settings = useSiteSettings();
  const heading = useRef<HTMLHeadingElement>(null);
  const [typed, setTyped] = useState('');
  const [revealed, setRevealed] = useState(0);
  const [problem, setProblem] = useState<{ key: MessageKey; attempt: number } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const attempts = useRef(0);
  const wrongCodes = useRef(0);
  const app = kind === 'totp';
  const inputId = app ? 'verify-app-code' : 'verify-backup-code';

  useEffect(() => {
    heading.current?.focus();
  }, []);
  // The token client for the exchange, then the signed-in page's code while the customer finds their
  // code, as on the challenge page (decision 033).
  useEffect(() => {
    if (submitting) return;
    return prefetchSignedInCode({ after: prefetchTokenClient() });
  }, [submitting]);

  const code = app ? appCodeOf(typed) : backupCodeOf(typed);
  const inlineError =
    revealed > 0 && code === null
      ? pageMessage(page, app ? 'appCodeErrorMessage' : 'backupCodeErrorMessage')
      : null;

  const show = (key: MessageKey) => {
    attempts.current += 1;
    setProblem({ key, attempt: attempts.current });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (code === null) {
      setProblem(null);
      setRevealed((n) => n + 1);
      return;
    }
    setSubmitting(true);
    setProblem(null);
    let redirecting = false;
    try {
      const answer = await verifyFactorCode(factorId, stateToken, code);
      const outcome = await completeSignIn(answer, { method: kind });
      redirecting = outcome.kind === 'redirecting';
      if (!redirecting) show('apiError');
    } catch (failure) {
      const reason = identityFailureOf(failure);
      if (reason === 'wrongCode') {
        wrongCodes.current += 1;
        show(app ? 'appCodeWrongMessage' : 'backupCodeWrongMessage');
      } else if (reason === 'sessionExpired') {
        if (wrongCodes.current > 0) show('lockedOutMessage');
        else await signOut({ reason: 'journeyFailed', loginPath: settings.loginPage });
      } else if (reason === 'rateLimited') {
        show('tooManyAttemptsMessage');
      } else {
        show('apiError');
      }
    } finally {
      if (!redirecting) setSubmitting(false);
    }
  };

  const lockedOut = problem?.key === 'lockedOutMessage';

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {plainText(pageMessage(page, app ? 'appCodeHeading' : 'backupCodeHeading'))}
      </h1>
      {problem ? (
        <ProblemAlert
          title={pageMessage(page, 'errorSummaryHeading')}
          html={pageMessage(page, problem.key, { phone: settings.infinityPhoneTracking })}
          focusKey={problem.attempt}
        />
      ) : (
        <ErrorSummary
          title={pageMessage(page, 'errorSummaryHeading')}
          errors={inlineError ? [{ id: inputId, message: inlineError }] : []}
          focusKey={revealed}
        />
      )}
      {lockedOut ? (
        <Button
          onClick={() =>
            void signOut({ reason: 'journeyLeft', navigate: true, loginPath: settings.loginPage })
          }
        >
          {plainText(pageMessage(page, 'continueText'))}
        </Button>
      ) : (
        <form
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          aria-label={plainText(pageMessage(page, app ? 'appCodeHeading' : 'backupCodeHeading'))}
        >
          <TextField
            id={inputId}
            label={plainText(pageMessage(page, app ? 'appCodeLabel' : 'backupCodeLabel'))}
            hint={plainText(pageMessage(page, app ? 'appCodeHint' : 'backupCodeHint'))}
            value={typed}
            onChange={(value) => {
              setTyped(value);
              setProblem(null);
            }}
            error={inlineError}
            autoComplete="one-time-code"
            inputMode={app ? 'numeric' : 'text'}
            autoCapitalize={app ? undefined : 'characters'}
            spellCheck={false}
            maxLength={app ? 7 : 11}
            width={10}
            required
            disabled={submitting}
          />
          <div className="cta-list">
            <Button type="submit" submitting={submitting} submittingText={settings.commonTexts['loading']}>
              {plainText(pageMessage(page, 'continueText'))}
            </Button>
            <Button variant="secondary" onClick={onBack} disabled={submitting}>
              {plainText(pageMessage(page, 'chooseAnotherText'))}
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
