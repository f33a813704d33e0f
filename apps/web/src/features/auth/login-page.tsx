import type { FormField } from '@portal/contracts/content';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { FormSubmitButton, readyToSend } from '../../lib/forms/form-submit';
import { ErrorSummary } from '../../components/ui/error-summary';
import { FormError } from '../../components/ui/form-error';
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
import { captureLoginParams } from '../../session/login-params';
import { clearSignOutNotice, peekSignOutNotice, type SignOutReason } from '../../session/sign-out';
import { fieldId } from '../../lib/validation/field';
import { ProblemAlert } from './components/problem-alert';
// Types only: the module itself is loaded with import() (see loadLoginAttempt).
import type * as LoginAttempt from './utils/login-attempt';
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

/**
 * The sign-in call and everything after it (utils/login-attempt.ts), fetched once the customer starts on
 * the form: showing the page does not need them.
 */
let attemptModule: Promise<typeof LoginAttempt> | undefined;
function loadLoginAttempt() {
  attemptModule ??= import('./utils/login-attempt').catch((error: unknown) => {
    attemptModule = undefined;
    throw error;
  });
  return attemptModule;
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
  const formErrorId = useId();
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
    // Spec: an invalid email does nothing; the customer is shown what to fix.
    if (!readyToSend(event, form, { submitting })) return;
    setSubmitting(true);
    setProblem(null);
    let keepSpinner = false;
    try {
      const { attemptSignIn } = await loadLoginAttempt();
      const result = await attemptSignIn(email, password, page.nextUrl ?? '/login/verify');
      if (result.kind === 'continuing') {
        keepSpinner = true;
      } else {
        form.clear([passwordField.name]);
        showProblem(result.key);
      }
    } catch {
      // The sign-in code could not be downloaded: as good as no connection.
      form.clear([passwordField.name]);
      showProblem('apiError');
    } finally {
      if (!keepSpinner) setSubmitting(false);
    }
  };

  // Spec section 5: shown while the first input has a value but the form is not yet valid.
  const formError = form.showFormError ? pageMessage(page, 'formErrorMessage') : null;

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
          focusKey={form.submitCount}
        />
      )}
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        onFocus={() => void loadLoginAttempt().catch(() => undefined)}
        aria-label={page.heading}
      >
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
        {formError ? (
          <FormError id={formErrorId}>
            <RichText html={formError} />
          </FormError>
        ) : null}
        <FormSubmitButton
          form={form}
          submitting={submitting}
          submittingText={settings.commonTexts['loading']}
          describedBy={formError ? formErrorId : undefined}
        >
          {page.submitText ?? 'Sign in'}
        </FormSubmitButton>
      </form>
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
