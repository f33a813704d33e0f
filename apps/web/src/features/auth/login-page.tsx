import type { FormField } from '@portal/contracts/content';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FormSubmitButton, readyToSend } from '../../lib/forms/form-submit';
import { Button } from '../../components/ui/button';
import { ErrorSummary } from '../../components/ui/error-summary';
import { FormError } from '../../components/ui/form-error';
import { InsetText } from '../../components/ui/inset-text';
import { NotificationBanner } from '../../components/ui/notification-banner';
import { PasswordField } from '../../components/ui/password-field';
import { TextField } from '../../components/ui/text-field';
import { ContentBlocks } from '../../content/content-blocks';
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
import type * as Unlock from './utils/unlock';
import type * as PasskeySignIn from './utils/passkey-sign-in';
import { pageMessage, plainText, type MessageKey } from './utils/page-messages';

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

/** Self-service unlock (utils/unlock.ts): loaded only when a customer asks for a link or opens one. */
let unlockModule: Promise<typeof Unlock> | undefined;
function loadUnlock() {
  unlockModule ??= import('./utils/unlock').catch((error: unknown) => {
    unlockModule = undefined;
    throw error;
  });
  return unlockModule;
}

/** Passkey sign-in (utils/passkey-sign-in.ts, with the browser library): loaded after the page shows. */
let passkeyModule: Promise<typeof PasskeySignIn> | undefined;
function loadPasskeySignIn() {
  passkeyModule ??= import('./utils/passkey-sign-in').catch((error: unknown) => {
    passkeyModule = undefined;
    throw error;
  });
  return passkeyModule;
}

/** How long a lockout lasts (server identityLimits.lockoutMs): a locked account opens again by then. */
const LOCKOUT_MINUTES = 30;
/*
 * Made when first needed, not when the page's code runs: a formatter with a time zone loads the zone's
 * data, which on a slow phone holds the page up (about 40 ms of a 4x slower CPU) before it can respond.
 */
let clockTime: Intl.DateTimeFormat | undefined;

/** When an account locked by now opens again at the latest, as the customer's clock shows it (HH:MM). */
function lockoutEndsBy(): string {
  clockTime ??= new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/London',
  });
  return clockTime.format(new Date(Date.now() + LOCKOUT_MINUTES * 60_000));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The failures after which the account may be locked: the page then offers the unlock link. */
const mayBeLocked: ReadonlySet<MessageKey> = new Set(['wrongCredentialsMessage', 'lockedOutMessage']);

const noticeKeys: Record<SignOutReason, MessageKey | null> = {
  user: 'signedOutMessage',
  idle: 'sessionExpiredMessage',
  expired: 'sessionEndedMessage',
  endedElsewhere: 'signedOutElsewhereMessage',
  journeyFailed: 'journeyFailedMessage',
  tooManyAttempts: 'tooManyAttemptsMessage',
  journeyLeft: null,
};

/**
 * Sign-in with email and password (spec sections 4, 5, 8). The button works only when both fields are
 * valid; an invalid email sends nothing. A wrong password shows content wrongCredentialsMessage, keeps the
 * email and clears the password. MFA_REQUIRED continues to the verification page (content nextUrl);
 * statuses the journey cannot continue from get their own message, with the page's links as the way on.
 *
 * Lockout: the identity service answers a locked account like a wrong password (so nobody learns which
 * accounts exist), so after a failed sign-in the page says when a locked account opens again at the
 * latest (30 minutes from now) and offers to email an unlock link (recovery/unlock). The link comes back
 * here as /login?unlock=<token>: the page redeems it (recovery/token), drops it from the address and says
 * whether the account is unlocked.
 *
 * Passkeys (decision 024): where the browser supports them, a "Sign in with a passkey" button, and the
 * email field offers the customer's passkeys in its autofill list (autocomplete "username webauthn",
 * conditional mediation) while the page is open. A passkey counts as both steps: straight on as after a
 * verified code. If it fails, a message says so and the password form works as before.
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
  const navigate = useNavigate();
  /** When a locked account opens again at the latest, shown after a failed sign-in; null otherwise. */
  const [lockHelp, setLockHelp] = useState<{ until: string } | null>(null);
  const [unlockNotice, setUnlockNotice] = useState<{
    key: MessageKey;
    success: boolean;
    email?: string;
  } | null>(null);
  const [unlockSending, setUnlockSending] = useState(false);
  const redeemedToken = useRef<string | null>(null);
  const phone = { phone: settings.infinityPhoneTracking };
  // Shown from the first paint (the server's too), as nearly every browser supports passkeys, and taken
  // away where this one does not: showing it only once the check is done moved the page under it.
  const [passkeys, setPasskeys] = useState(true);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  /** A passkey picked from the email field's autofill list that did not sign in (shown until the next try). */
  const [autofillProblem, setAutofillProblem] = useState<MessageKey | null>(null);

  useEffect(() => {
    captureLoginParams(location.search);
  }, [location.search]);
  useEffect(() => clearSignOutNotice(), []);

  // The unlock link's landing: redeem the token once, and take it out of the address and history.
  const unlockToken = new URLSearchParams(location.search).get('unlock');
  useEffect(() => {
    if (!unlockToken || redeemedToken.current === unlockToken) return;
    redeemedToken.current = unlockToken;
    const rest = new URLSearchParams(location.search);
    rest.delete('unlock');
    const search = rest.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    void loadUnlock()
      .then(({ unlockWithLink }) => unlockWithLink(unlockToken))
      .catch(() => ({ unlocked: false, key: 'apiError' as const }))
      .then(({ unlocked, key }) => setUnlockNotice({ key, success: unlocked }));
  }, [unlockToken, location.search, location.pathname, navigate]);

  // Passkeys: the button stays if the browser says it can; the autofill offer waits for the customer until
  // the page is left (or the button's prompt replaces it).
  useEffect(() => {
    let left = false;
    void loadPasskeySignIn()
      .then(async (passkey) => {
        const support = await passkey.passkeySupport();
        if (left) return;
        setPasskeys(support.button);
        if (!support.autofill) return;
        const result = await passkey.signInWithPasskey('autofill');
        if (left || result.kind === 'cancelled') return;
        if (result.kind === 'problem') setAutofillProblem(result.key);
        else setPasskeyBusy(true);
      })
      .catch(() => undefined);
    return () => {
      left = true;
      void passkeyModule?.then((passkey) => passkey.cancelPasskeyPrompt()).catch(() => undefined);
    };
  }, []);

  const email = String(form.values[emailField.name] ?? '');
  const password = String(form.values[passwordField.name] ?? '');
  const noticeKey = notice ? noticeKeys[notice] : null;

  const showProblem = (key: MessageKey) => {
    setAutofillProblem(null);
    attempts.current += 1;
    setProblem({ html: pageMessage(page, key, phone), attempt: attempts.current });
    setLockHelp(mayBeLocked.has(key) ? { until: lockoutEndsBy() } : null);
  };

  const onPasskey = async () => {
    if (passkeyBusy || submitting) return;
    setPasskeyBusy(true);
    setProblem(null);
    setAutofillProblem(null);
    setLockHelp(null);
    setUnlockNotice(null);
    let keepSpinner = false;
    try {
      const { signInWithPasskey } = await loadPasskeySignIn();
      const result = await signInWithPasskey('button');
      if (result.kind === 'continuing') keepSpinner = true;
      else if (result.kind === 'problem') showProblem(result.key);
    } catch {
      showProblem('apiError');
    } finally {
      if (!keepSpinner) setPasskeyBusy(false);
    }
  };

  const askForUnlock = async () => {
    if (unlockSending) return;
    setUnlockSending(true);
    try {
      const { askForUnlockLink } = await loadUnlock();
      const key = await askForUnlockLink(email);
      setUnlockNotice({ key, success: key === 'unlockSentMessage', email });
      if (key === 'unlockSentMessage') setLockHelp(null);
    } catch {
      setUnlockNotice({ key: 'apiError', success: false });
    } finally {
      setUnlockSending(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    // Spec: an invalid email does nothing; the customer is shown what to fix.
    if (!readyToSend(event, form, { submitting })) return;
    setSubmitting(true);
    setProblem(null);
    setAutofillProblem(null);
    setLockHelp(null);
    setUnlockNotice(null);
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

  // Spec section 5: shown while the first input has a value but the form is not yet valid. Once the
  // summary at the top shows, it says what is wrong (and the fields at fault say it beside them): the
  // page-level message would only repeat it, or contradict it after a wrong password cleared that field.
  const summaryShows = problem !== null || form.summaryErrors.length > 0;
  const formError = form.showFormError && !summaryShows ? pageMessage(page, 'formErrorMessage') : null;

  return (
    <article className="page">
      <h1>{page.heading}</h1>
      {unlockNotice ? (
        <NotificationBanner variant={unlockNotice.success ? 'success' : 'important'} focusOnMount>
          <RichText
            html={pageMessage(page, unlockNotice.key, {
              ...phone,
              email: escapeHtml(unlockNotice.email ?? ''),
            })}
          />
        </NotificationBanner>
      ) : null}
      {noticeKey && !problem && !unlockNotice ? (
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
      ) : autofillProblem ? (
        <ProblemAlert
          title={pageMessage(page, 'errorSummaryHeading')}
          html={pageMessage(page, autofillProblem, phone)}
          focusKey={-1}
        />
      ) : (
        <ErrorSummary
          title={pageMessage(page, 'errorSummaryHeading')}
          errors={form.summaryErrors}
          focusKey={form.submitCount}
        />
      )}
      {lockHelp ? (
        <InsetText className="login-unlock">
          <RichText html={pageMessage(page, 'lockoutHelpMessage', { ...phone, time: lockHelp.until })} />
          <Button
            variant="secondary"
            submitting={unlockSending}
            submittingText={settings.commonTexts['loading']}
            onClick={() => void askForUnlock()}
          >
            {plainText(pageMessage(page, 'unlockButtonText'))}
          </Button>
        </InsetText>
      ) : null}
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      <form
        noValidate
        // Never a GET: a press before the app has the page (decision 031) must not put the password in an address.
        method="post"
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
          // "webauthn" lets the browser offer passkeys in this field's autofill list (conditional mediation).
          autoComplete="username webauthn"
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
      {passkeys ? (
        <section className="login-passkey" aria-labelledby="login-passkey-heading">
          <h2 id="login-passkey-heading" className="visually-hidden">
            {plainText(pageMessage(page, 'passkeyButtonText'))}
          </h2>
          <RichText html={pageMessage(page, 'passkeyIntroText')} />
          <Button
            variant="secondary"
            submitting={passkeyBusy}
            submittingText={settings.commonTexts['loading']}
            onClick={() => void onPasskey()}
          >
            {plainText(pageMessage(page, 'passkeyButtonText'))}
          </Button>
        </section>
      ) : null}
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
