import type { FormField } from '@portal/contracts/content';
import type { RegistrationBody } from '@portal/contracts/registration';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
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
import { ERROR_PAGE_PATH } from '../../lib/api-client';
import { auditEventIds } from '../../session/audit/audit-event-ids';
import { AUDIT_FAILURE, logAuditEvent } from '../../session/audit/log-audit-event';
import { useForm } from '../../lib/forms/use-form';
import { startRegistrationJourney } from '../../session/registration-journey';
import { toIsoDate } from '../../lib/validation/date-of-birth';
import { normaliseEmail, normalisePolicyNumber, normalisePostcode } from '@portal/contracts/field-rules';
import { startRegistration } from './api/start-registration';
import { ContentField } from './components/content-field';
import { pageMessage, type MessageKey } from './utils/page-messages';

/** The value of `warning` that marks an expired or used activation link (spec section 2). */
export const BAD_TOKEN_WARNING = 'bad-token';
/** The journey state content's `showWhen` names for the policy number field. */
export const NEED_MORE_DATA_STATE = 'needMoreData';
const DEFAULT_NEXT_URL = '/register/check-your-email';

type Stage = 'details' | 'needMoreData' | 'failed';

/** Fields shown in a stage: those without `showWhen`, and those whose `showWhen` is the stage's state. */
export function fieldsForStage(fields: readonly FormField[], stage: Stage): FormField[] {
  return fields.filter(
    (f) => f.showWhen === undefined || (stage === 'needMoreData' && f.showWhen === NEED_MORE_DATA_STATE),
  );
}

/** The registration service's body from the form's values, by field type. */
export function registrationBody(
  fields: readonly FormField[],
  values: Readonly<Record<string, unknown>>,
): RegistrationBody {
  const text = (type: FormField['type']) => {
    const field = fields.find((f) => f.type === type);
    const value = field ? values[field.name] : undefined;
    return typeof value === 'string' ? value : '';
  };
  const body: RegistrationBody = {
    emailAddress: normaliseEmail(text('email')),
    dateOfBirth: toIsoDate(text('dob')) ?? '',
    postCode: normalisePostcode(text('postcode')),
  };
  const policyNumber = text('policyNumber');
  if (policyNumber !== '') body.policyNumber = normalisePolicyNumber(policyNumber);
  return body;
}

/**
 * Register for an online account (spec sections 2, 4, 5, 8). The fields are built from content by type;
 * `?warning=bad-token` shows the invalid-token message. OK goes to the check-your-email page; OK_1 shows
 * the incorrect-email message; OK_2 shows the failure blocks; NEED_MORE_DATA asks for the policy number and
 * sends again with it; Error or no answer goes to /error. While registering, the registration-journey flag
 * is '1' in local storage.
 */
export default function RegistrationPage(props: PageProps<'RegistrationPage'>) {
  const location = useLocation();
  // A link back to this page (the failure blocks' "try again") starts a fresh form.
  return <RegistrationForm key={location.key} {...props} />;
}

function RegistrationForm({ page }: PageProps<'RegistrationPage'>) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const location = useLocation();
  const [stage, setStage] = useState<Stage>('details');
  const fields = useMemo(() => fieldsForStage(page.fields, stage), [page.fields, stage]);
  const form = useForm({ fields });
  const [problem, setProblem] = useState<{ key: MessageKey; attempt: number } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const attempts = useRef(0);
  const failureRef = useRef<HTMLDivElement>(null);
  const policyFieldId = page.fields.find((f) => f.showWhen === NEED_MORE_DATA_STATE)?.id;
  const badToken = new URLSearchParams(location.search).get('warning') === BAD_TOKEN_WARNING;
  const phone = { phone: settings.infinityPhoneTracking };

  useEffect(() => {
    if (stage === 'failed') failureRef.current?.focus();
    if (stage === 'needMoreData' && policyFieldId) document.getElementById(policyFieldId)?.focus();
  }, [stage, policyFieldId]);

  const show = (key: MessageKey) => {
    attempts.current += 1;
    setProblem({ key, attempt: attempts.current });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    if (!readyToSend(event, form, { submitting })) return;
    setSubmitting(true);
    setProblem(null);
    startRegistrationJourney();
    const body = registrationBody(fields, form.values);
    const outcome = await startRegistration(body);
    const audit = (isSuccess: boolean, failureReason?: string) =>
      void logAuditEvent({
        eventId: auditEventIds.registration,
        isSuccess,
        failureReason: failureReason ?? null,
        policyNumber: body.policyNumber ?? null,
        authenticationStatus: 'Unauthenticated',
      });

    if (outcome.kind === 'error') {
      audit(false, outcome.reason === 'network' ? AUDIT_FAILURE.network : 'Error');
      navigate(ERROR_PAGE_PATH);
      return;
    }
    setSubmitting(false);
    if (outcome.kind === 'rateLimited') {
      audit(false, 'Too many attempts');
      show('tooManyAttemptsMessage');
      return;
    }
    if (outcome.kind === 'rejected') {
      audit(false, 'Rejected');
      show('apiError');
      return;
    }
    audit(outcome.status === 'OK', outcome.status === 'OK' ? undefined : outcome.status);
    switch (outcome.status) {
      case 'OK':
        setSubmitting(true);
        navigate(page.nextUrl ?? DEFAULT_NEXT_URL);
        return;
      case 'OK_1':
        show('incorrectEmailMessage');
        return;
      case 'OK_2':
        setStage('failed');
        return;
      case 'NEED_MORE_DATA':
        if (stage === 'needMoreData') {
          // Asked again although a policy number was sent: these details cannot be matched online.
          setStage('failed');
          return;
        }
        setStage('needMoreData');
        return;
    }
  };

  const formError = form.showFormError && form.submitCount > 0 ? pageMessage(page, 'formErrorMessage') : null;
  const heading = pageMessage(page, 'errorSummaryHeading');

  if (stage === 'failed' && page.failureBlocks.length > 0) {
    return (
      <article className="page">
        <h1>{page.heading}</h1>
        <div
          ref={failureRef}
          tabIndex={-1}
          className="registration-failure"
          data-testid="registration-failure"
        >
          <ContentBlocks blocks={page.failureBlocks} />
        </div>
      </article>
    );
  }

  return (
    <article className="page">
      <h1>{page.heading}</h1>
      {badToken ? (
        <NotificationBanner variant="important" focusOnMount>
          <RichText html={pageMessage(page, 'invalidTokenMessage', phone)} />
        </NotificationBanner>
      ) : null}
      {problem ? (
        <ErrorSummary
          key={problem.attempt}
          title={heading}
          errors={[{ message: <RichText html={pageMessage(page, problem.key, phone)} /> }]}
        />
      ) : (
        <ErrorSummary
          title={heading}
          errors={form.summaryErrors}
          description={formError ? <RichText html={formError} /> : undefined}
          focusKey={form.submitCount}
        />
      )}
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      {stage === 'needMoreData' ? (
        <NotificationBanner variant="important">
          <RichText html={pageMessage(page, 'needMoreDataMessage', phone)} />
        </NotificationBanner>
      ) : null}
      <form noValidate method="post" onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
        {fields.map((field) => (
          <ContentField key={field.id} field={field} form={form} settings={settings} />
        ))}
        <FormSubmitButton
          form={form}
          submitting={submitting}
          submittingText={settings.commonTexts['loading']}
        >
          {page.submitText ?? 'Continue'}
        </FormSubmitButton>
      </form>
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
