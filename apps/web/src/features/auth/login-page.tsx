import type { FormField } from '@portal/contracts/content';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../../components/ui/button';
import { ErrorSummary } from '../../components/ui/error-summary';
import { NotificationBanner } from '../../components/ui/notification-banner';
import { PasswordField } from '../../components/ui/password-field';
import { TextField } from '../../components/ui/text-field';
import { ContentBlocks } from '../../content/block-registry';
import { CallToActionList } from '../../content/call-to-action';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { useSiteSettings } from '../../content/use-site-settings';
import { useForm } from '../../lib/forms/use-form';
import { auditSignIn } from '../../lib/auth/auth-audit';
import { identityFailureOf, primaryAuthentication } from '../../lib/auth/identity-api';
import { captureLoginParams } from '../../lib/auth/post-login';
import { completeSignIn } from '../../lib/auth/sign-in';
import { clearSignOutNotice, peekSignOutNotice, type SignOutReason } from '../../lib/auth/sign-out';
import { normaliseEmail } from '../../lib/validation/email';
import { fieldId } from '../../lib/validation/field';
import { ProblemAlert } from './components/problem-alert';
import { pageMessage, type MessageKey } from './utils/page-messages';

const defaultEmailField: FormField = {
  id: 'login-email',
  name: 'email',
  type: 'email',
  label: 'Email address',
  errorMessage: 'Enter an email address in the correct format, like name@example.com',
  required: true,
  disabled: false,
  autocomplete: 'email',
};
const defaultPasswordField: FormField = {
  id: 'login-password',
  name: 'password',
  type: 'password',
  label: 'Password',
  errorMessage: 'Enter your password',
  required: true,
  disabled: false,
  autocomplete: 'current-password',
};

/** The message shown for a provider status the journey cannot continue from. */
export function messageKeyForStatus(providerStatus: string): MessageKey {
  switch (providerStatus) {
    case 'LOCKED_OUT':
      return 'lockedOutMessage';
    case 'PASSWORD_EXPIRED':
      return 'passwordExpiredMessage';
    default:
      return 'unsupportedStatusMessage';
  }
}

const noticeKeys: Record<SignOutReason, MessageKey | null> = {
  user: 'signedOutMessage',
  idle: 'sessionExpiredMessage',
  expired: 'sessionExpiredMessage',
  journeyFailed: 'journeyFailedMessage',
  tooManyAttempts: 'tooManyAttemptsMessage',
  journeyLeft: null,
};

/**
 * Sign-in with email and password (spec sections 4, 5, 8). The button works only when both fields are
 * valid; an invalid email sends nothing. A wrong password shows content wrongCredentialsMessage, keeps the
 * email and clears the password. MFA_REQUIRED continues to the verification page (content nextUrl);
 * statuses the journey cannot continue from get their own message, with the page's links as the way on.
 */
export default function LoginPage({ page }: PageProps<'LoginPage'>) {
  const settings = useSiteSettings();
  const location = useLocation();
  const emailField = page.fields.find((f) => f.type === 'email') ?? defaultEmailField;
  const passwordField = page.fields.find((f) => f.type === 'password') ?? defaultPasswordField;
  const fields = useMemo(() => [emailField, passwordField], [emailField, passwordField]);
  const form = useForm({ fields });
  const [problem, setProblem] = useState<{ html: string; attempt: number } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [notice] = useState(peekSignOutNotice);
  const attempts = useRef(0);
  const phone = { phone: settings.infinityPhoneTracking };

  useEffect(() => {
    captureLoginParams(location.search);
  }, [location.search]);
  useEffect(() => clearSignOutNotice(), []);

  const email = String(form.values[emailField.name] ?? '');
  const password = String(form.values[passwordField.name] ?? '');
  const noticeKey = notice ? noticeKeys[notice] : null;

  const showProblem = (key: MessageKey) => {
    attempts.current += 1;
    setProblem({ html: pageMessage(page, key, phone), attempt: attempts.current });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!form.canSubmit) {
      // Spec: an invalid email does nothing; the customer is shown what to fix.
      form.revealErrors();
      return;
    }
    setSubmitting(true);
    setProblem(null);
    let keepSpinner = false;
    try {
      const answer = await primaryAuthentication(normaliseEmail(email), password);
      const outcome = await completeSignIn(answer, { verifyPath: page.nextUrl ?? '/login/verify' });
      if (outcome.kind === 'unsupported') {
        auditSignIn({ isSuccess: false, failureReason: 'Authentication failure' });
        form.clear([passwordField.name]);
        showProblem(messageKeyForStatus(outcome.providerStatus));
      } else {
        keepSpinner = true;
      }
    } catch (error) {
      const failure = identityFailureOf(error);
      auditSignIn({
        isSuccess: false,
        failureReason: failure === 'network' ? 'Network communication problem' : 'Authentication failure',
      });
      form.clear([passwordField.name]);
      if (failure === 'wrongCredentials') showProblem('wrongCredentialsMessage');
      else if (failure === 'rateLimited') showProblem('tooManyAttemptsMessage');
      else showProblem('apiError');
    } finally {
      if (!keepSpinner) setSubmitting(false);
    }
  };

  const formError = form.showFormError && form.submitCount > 0 ? pageMessage(page, 'formErrorMessage') : null;

  return (
    <article className="page">
      <h1>{page.heading}</h1>
      {noticeKey && !problem ? (
        <NotificationBanner variant={notice === 'user' ? 'success' : 'important'}>
          <RichText html={pageMessage(page, noticeKey, phone)} />
        </NotificationBanner>
      ) : null}
      {problem ? (
        <ProblemAlert
          title={pageMessage(page, 'errorSummaryHeading')}
          html={problem.html}
          focusKey={problem.attempt}
        />
      ) : (
        <ErrorSummary
          title={pageMessage(page, 'errorSummaryHeading')}
          errors={form.summaryErrors}
          description={formError ? <RichText html={formError} /> : undefined}
          focusKey={form.submitCount}
        />
      )}
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
        <TextField
          id={fieldId(emailField)}
          name={emailField.name}
          label={emailField.label}
          hint={emailField.subLabel}
          type="email"
          inputMode="email"
          autoComplete={emailField.autocomplete ?? 'email'}
          spellCheck={false}
          autoCapitalize="none"
          maxLength={emailField.maxLength}
          required={emailField.required}
          value={email}
          error={form.errorFor(emailField.name)}
          onChange={(value) => form.setValue(emailField.name, value)}
          onBlur={() => form.blur(emailField.name)}
        />
        <PasswordField
          id={fieldId(passwordField)}
          name={passwordField.name}
          label={passwordField.label}
          hint={passwordField.subLabel}
          autoComplete="current-password"
          maxLength={passwordField.maxLength}
          required={passwordField.required}
          value={password}
          error={form.errorFor(passwordField.name)}
          onChange={(value) => form.setValue(passwordField.name, value)}
          onBlur={() => form.blur(passwordField.name)}
          showText={settings.commonTexts['showPassword']}
          hideText={settings.commonTexts['hidePassword']}
          showLabel={settings.commonTexts['showPasswordLabel']}
          hideLabel={settings.commonTexts['hidePasswordLabel']}
        />
        <Button
          type="submit"
          disabled={!form.canSubmit}
          submitting={submitting}
          submittingText={settings.commonTexts['loading']}
          onDisabledClick={() => form.revealErrors()}
        >
          {page.submitText ?? 'Sign in'}
        </Button>
      </form>
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
