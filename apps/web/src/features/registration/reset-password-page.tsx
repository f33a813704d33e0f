import type { FormField } from '@portal/contracts/content';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FormSubmitButton, readyToSend } from '../../lib/forms/form-submit';
import { ErrorSummary } from '../../components/ui/error-summary';
import { NotificationBanner } from '../../components/ui/notification-banner';
import { ContentBlocks } from '../../content/content-blocks';
import { CallToActionList } from '../../content/call-to-action';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { useSiteSettings } from '../../content/use-site-settings';
import { auditEventIds } from '../../session/audit/audit-event-ids';
import { AUDIT_FAILURE, logAuditEvent } from '../../session/audit/log-audit-event';
import { useForm } from '../../lib/forms/use-form';
import { normaliseEmail } from '@portal/contracts/field-rules';
import { requestPasswordReset } from './api/request-password-reset';
import { ContentField } from './components/content-field';
import { pageMessage, type MessageKey } from './utils/page-messages';
import { BAD_TOKEN_WARNING } from './registration-page';

const DEFAULT_NEXT_URL = '/forgotten-password/check-your-email';

const defaultEmailField: FormField = {
  id: 'reset-email',
  name: 'email',
  type: 'email',
  label: 'Email address',
  errorMessage: 'Enter an email address in the correct format, like name@example.com',
  required: false,
  disabled: false,
  autocomplete: 'email',
};

/**
 * Forgotten password (spec sections 5, 7): the email field accepts empty (no error for an untouched or
 * cleared field) but the button works only with a valid address. The registration service emails a reset
 * link when an account exists; the answer, and so the next page, is the same for every address. Opened
 * from an expired or used reset link (`?warning=bad-token`), it says so first: the form sends a new link.
 */
export default function ResetPasswordPage({ page }: PageProps<'ResetPasswordPage'>) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const location = useLocation();
  const expiredLink = new URLSearchParams(location.search).get('warning') === BAD_TOKEN_WARNING;
  const emailField = page.fields.find((f) => f.type === 'email') ?? defaultEmailField;
  const fields = useMemo(() => [emailField], [emailField]);
  const form = useForm({ fields });
  const [problem, setProblem] = useState<{ key: MessageKey; attempt: number } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const attempts = useRef(0);

  const email = String(form.values[emailField.name] ?? '');
  const ready = form.canSubmit && normaliseEmail(email) !== '';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    // Spec: an invalid (or empty) email does nothing but say what to fix.
    if (!readyToSend(event, form, { submitting, ready })) return;
    setSubmitting(true);
    setProblem(null);
    const result = await requestPasswordReset(normaliseEmail(email));
    void logAuditEvent({
      eventId: auditEventIds.passwordResetRequest,
      isSuccess: result === 'sent',
      failureReason:
        result === 'sent' ? null : result === 'rateLimited' ? 'Too many attempts' : AUDIT_FAILURE.network,
      authenticationStatus: 'Unauthenticated',
    });
    if (result === 'sent') {
      navigate(page.nextUrl ?? DEFAULT_NEXT_URL);
      return;
    }
    setSubmitting(false);
    attempts.current += 1;
    setProblem({
      key: result === 'rateLimited' ? 'tooManyAttemptsMessage' : 'apiError',
      attempt: attempts.current,
    });
  };

  const heading = pageMessage(page, 'errorSummaryHeading');
  // An empty field has no error of its own; asking to send with it still needs saying, at the top and
  // beside the field.
  const emptyError =
    form.submitCount > 0 && normaliseEmail(email) === '' && form.summaryErrors.length === 0
      ? (emailField.requiredMessage ?? emailField.errorMessage)
      : null;
  const summaryErrors = emptyError ? [{ id: emailField.id, message: emptyError }] : form.summaryErrors;

  return (
    <article className="page">
      <h1>{page.heading}</h1>
      {expiredLink && !problem && summaryErrors.length === 0 ? (
        <NotificationBanner variant="important" focusOnMount>
          <RichText html={pageMessage(page, 'expiredLinkMessage')} />
        </NotificationBanner>
      ) : null}
      {problem ? (
        <ErrorSummary
          key={problem.attempt}
          title={heading}
          errors={[{ message: <RichText html={pageMessage(page, problem.key)} /> }]}
        />
      ) : (
        <ErrorSummary title={heading} errors={summaryErrors} focusKey={form.submitCount} />
      )}
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      <form noValidate method="post" onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
        <ContentField field={emailField} form={form} settings={settings} error={emptyError} />
        <FormSubmitButton
          form={form}
          ready={ready}
          submitting={submitting}
          submittingText={settings.commonTexts['loading']}
        >
          {page.submitText ?? 'Send reset link'}
        </FormSubmitButton>
      </form>
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
