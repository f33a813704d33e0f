import { PASSWORD_SAME_AS_CURRENT } from '@portal/contracts/field-rules';
import type { FormField } from '@portal/contracts/content';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FormSubmitButton, readyToSend } from '../../lib/forms/form-submit';
import { ErrorSummary } from '../../components/ui/error-summary';
import { Spinner } from '../../components/ui/spinner';
import { ContentBlocks } from '../../content/content-blocks';
import { CallToActionList } from '../../content/call-to-action';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { useSiteSettings } from '../../content/use-site-settings';
import { ApiError } from '../../lib/api-client';
import { auditEventIds } from '../../session/audit/audit-event-ids';
import { auditFailureReasonOf, logAuditEvent } from '../../session/audit/log-audit-event';
import { cancelTransaction } from '../../session/api/cancel';
import { oktaErrorMessage } from '../../session/api/identity-failure';
import { completeSignIn } from '../../session/sign-in';
import { signOut } from '../../session/sign-out';
import { useForm } from '../../lib/forms/use-form';
import { rememberPendingCompletion, startRegistrationJourney } from '../../session/registration-journey';
import { setNewPassword } from './api/reset-password';
import { checkLinkToken, type PasswordMode, type PasswordResetTransaction } from './utils/check-link-token';
import { ContentField } from './components/content-field';
import { pageMessage, plainText } from './utils/page-messages';
import { BAD_TOKEN_WARNING } from './registration-page';

/**
 * Spec section 8: an invalid or empty token opens the registration page with the bad-token warning; a
 * reset link's page names the forgotten-password page instead (content `invalidLinkUrl`), which says the
 * link has expired or been used and offers a new one.
 */
const badLinkPath = (page: PageProps<'PasswordPage'>['page']) =>
  `${page.invalidLinkUrl}?warning=${BAD_TOKEN_WARNING}`;

const defaultPasswordField: FormField = {
  id: 'new-password',
  name: 'newPassword',
  type: 'newPassword',
  label: 'Create a password',
  errorMessage: 'Enter a password that meets all the requirements below',
  required: true,
  disabled: false,
  autocomplete: 'new-password',
};

const auditIds: Record<PasswordMode, { token: string; password: string }> = {
  activation: { token: auditEventIds.activation, password: auditEventIds.passwordSet },
  recovery: { token: auditEventIds.passwordResetToken, password: auditEventIds.passwordReset },
};

type Step =
  { kind: 'checking' } | { kind: 'ready'; transaction: PasswordResetTransaction } | { kind: 'leaving' };

/**
 * What the field says when the provider refuses the password: the page's own text for the current
 * password (content, the sentence its intro promises), otherwise the rule the provider names.
 */
function refusalText(page: PageProps<'PasswordPage'>['page'], cause: string | undefined): string {
  if (cause === PASSWORD_SAME_AS_CURRENT) return plainText(pageMessage(page, 'sameAsCurrentPasswordMessage'));
  return cause ?? plainText(pageMessage(page, 'passwordRejectedMessage'));
}

/**
 * Choose a password from an emailed link (spec sections 2, 4, 8): `token` is checked as an activation or a
 * recovery (content `mode`); a missing or refused token opens content `invalidLinkUrl` (the registration
 * page, or for a reset the forgotten-password page) with the bad-token warning. The new password is checked live against the requirements list from settings (always "No
 * spaces"). The provider's answer continues the sign-in: a session token signs the customer in; otherwise
 * the second factor is required, and the customer continues to choose how to get the code in the same
 * transaction (the new password takes effect when the code is right). A 403 (a password the provider
 * refuses, such as the current one) shows the provider's message in the summary and beside the field, and
 * clears the field; any other failure clears the session and opens the error fallback.
 */
export default function PasswordPage({ page }: PageProps<'PasswordPage'>) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const location = useLocation();
  const token = new URLSearchParams(location.search).get('token')?.trim() ?? '';
  const field = page.fields.find((f) => f.type === 'newPassword') ?? defaultPasswordField;
  const fields = useMemo(() => [field], [field]);
  const context = useMemo(() => ({ passwordSettings: settings.globalPasswordRequirementsBlock }), [settings]);
  const form = useForm({ fields, context });
  const [step, setStep] = useState<Step>({ kind: 'checking' });
  const [refusal, setRefusal] = useState<{ text: string; attempt: number } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const attempts = useRef(0);
  const checked = useRef<string | null>(null);
  const leaving = useRef(false);

  // Any failure but a refused password: forget the journey and show the error fallback (spec section 8).
  const fail = async (stateToken?: string) => {
    leaving.current = true;
    setStep({ kind: 'leaving' });
    if (stateToken) await cancelTransaction(stateToken);
    await signOut({ reason: 'journeyFailed', navigate: false });
    navigate(settings.errorPage, { replace: true });
  };

  useEffect(() => {
    // Checked once per token (React runs effects twice in development).
    if (checked.current === token || leaving.current) return;
    checked.current = token;
    if (page.mode === 'activation') startRegistrationJourney();
    if (token === '') {
      navigate(badLinkPath(page), { replace: true });
      return;
    }
    void (async () => {
      try {
        const result = await checkLinkToken(page.mode, token);
        void logAuditEvent({
          eventId: auditIds[page.mode].token,
          isSuccess: result.kind !== 'badToken',
          failureReason: result.kind === 'badToken' ? 'Authentication failure' : null,
          authenticationStatus: 'Unauthenticated',
        });
        if (result.kind === 'badToken') {
          navigate(badLinkPath(page), { replace: true });
        } else if (result.kind === 'ready') {
          setStep({ kind: 'ready', transaction: result.transaction });
        } else {
          const outcome = await completeSignIn(result.answer);
          if (outcome.kind === 'unsupported') await fail();
        }
      } catch (error) {
        void logAuditEvent({
          eventId: auditIds[page.mode].token,
          isSuccess: false,
          failureReason: auditFailureReasonOf(error),
          authenticationStatus: 'Unauthenticated',
        });
        await fail();
      }
    })();
    // `fail` and the page's mode are fixed for the life of this token's check.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  if (step.kind !== 'ready') {
    return (
      <article className="page">
        <h1>{page.heading}</h1>
        <div role="status" className="password-page__checking">
          <Spinner label={plainText(pageMessage(page, 'checkingLinkText'))} />
        </div>
      </article>
    );
  }
  const { transaction } = step;
  const password = String(form.values[field.name] ?? '');

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    if (!readyToSend(event, form, { submitting })) return;
    setSubmitting(true);
    setRefusal(null);
    let answer;
    try {
      answer = await setNewPassword(transaction.stateToken, password);
    } catch (error) {
      void logAuditEvent({
        eventId: auditIds[page.mode].password,
        isSuccess: false,
        failureReason: auditFailureReasonOf(error),
        authenticationStatus: 'Unauthenticated',
      });
      if (error instanceof ApiError && error.status === 403) {
        // The provider names the rule the password broke (errorCauses); the field starts again empty.
        form.clear([field.name]);
        attempts.current += 1;
        setRefusal({ text: refusalText(page, oktaErrorMessage(error)), attempt: attempts.current });
        setSubmitting(false);
        return;
      }
      await fail(transaction.stateToken);
      return;
    }
    void logAuditEvent({
      eventId: auditIds[page.mode].password,
      isSuccess: true,
      authenticationStatus: 'Unauthenticated',
    });
    if (page.mode === 'activation') {
      // Completed at the first sign-in, once the second factor has finished the activation.
      rememberPendingCompletion({
        oktaUserId: transaction.userId,
        stateToken: transaction.stateToken,
        expiresAt: 'expiresAt' in answer ? answer.expiresAt : transaction.expiresAt,
      });
    }
    try {
      const outcome = await completeSignIn(answer);
      if (outcome.kind === 'unsupported') await fail(transaction.stateToken);
    } catch {
      await fail(transaction.stateToken);
    }
  };

  const heading = pageMessage(page, 'errorSummaryHeading');
  return (
    <article className="page">
      <h1>{page.heading}</h1>
      {refusal ? (
        <ErrorSummary
          key={refusal.attempt}
          title={heading}
          errors={[{ id: field.id, message: refusal.text }]}
        />
      ) : (
        <ErrorSummary title={heading} errors={form.summaryErrors} focusKey={form.submitCount} />
      )}
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      <form noValidate method="post" onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
        <ContentField field={field} form={form} settings={settings} error={refusal?.text} />
        <FormSubmitButton
          form={form}
          submitting={submitting}
          submittingText={settings.commonTexts['loading']}
        >
          {page.submitText ?? 'Save password'}
        </FormSubmitButton>
      </form>
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
