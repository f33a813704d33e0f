import type { FormField } from '@portal/contracts/content';
import type { SignInFactor } from '@portal/contracts/identity';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { ErrorSummary } from '../../components/ui/error-summary';
import { RadioGroup } from '../../components/ui/radio-group';
import { ContentBlocks } from '../../content/content-blocks';
import { CallToActionList } from '../../content/call-to-action';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { useSiteSettings } from '../../content/use-site-settings';
import { fillPlaceholders } from '../../lib/forms/fill-placeholders';
import { auditMfaSend } from '../../session/auth-audit';
import { sendFactorCode } from '../../session/api/factor-verify';
import { identityFailureOf } from '../../session/api/identity-failure';
import { previousStep } from '../../session/api/previous';
import { completeSignIn } from '../../session/sign-in';
import { signOut } from '../../session/sign-out';
import { useAuthSnapshot } from '../../session/session-store';
import { fieldId } from '../../lib/validation/field';
import { pageMessage } from './utils/page-messages';

const defaultMethodField: FormField = {
  id: 'verify-method',
  name: 'factorType',
  type: 'radio',
  label: 'How would you like to get your code?',
  errorMessage: 'Choose how you would like to get your security code',
  required: true,
  disabled: false,
  options: [
    { id: 'verify-method-sms', label: 'Text message to {phone}', value: 'sms' },
    { id: 'verify-method-call', label: 'Phone call to {phone}', value: 'call' },
  ],
};

/** One radio per factor the customer has, labelled from content with the masked number filled in. */
export function factorOptions(field: FormField, factors: readonly SignInFactor[]) {
  return factors.map((factor) => {
    const option = field.options?.find((o) => o.value === factor.type);
    const label =
      option?.label ?? (factor.type === 'sms' ? 'Text message to {phone}' : 'Phone call to {phone}');
    return {
      value: factor.id,
      label: fillPlaceholders(label, { phone: factor.phoneNumber }),
      ...(option?.hint ? { hint: option.hint } : {}),
    };
  });
}

/**
 * Choose how to get the security code (spec section 4): a text message or a voice call, to the masked
 * numbers the identity provider offered. Sending asks the provider for a code and opens the challenge
 * page. On failure the session is cleared and the customer goes back to the start (the sign-in page).
 */
export default function AuthenticationVerificationPage({
  page,
}: PageProps<'AuthenticationVerificationPage'>) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const { data } = useAuthSnapshot();
  const field = page.fields.find((f) => f.type === 'radio') ?? defaultMethodField;
  const factors = data?.factors ?? [];
  const usable =
    data !== null &&
    data.stateToken !== undefined &&
    (data.status === 'mfaRequired' || data.status === 'mfaChallenge');
  const [chosen, setChosen] = useState<string | null>(() => (factors.length === 1 ? factors[0]!.id : null));
  const [revealed, setRevealed] = useState(0);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    // Reached without a sign-in in progress (bookmark, back button after finishing): start again.
    if (!usable && !submitting) navigate(settings.loginPage, { replace: true });
  }, [usable, submitting, navigate, settings.loginPage]);

  if (!usable) return null;

  const options = factorOptions(field, factors);
  const error = revealed > 0 && chosen === null ? field.errorMessage : null;
  const inputId = fieldId(field);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const factor = factors.find((f) => f.id === chosen);
    if (!factor || !data.stateToken || submitting) {
      setRevealed((n) => n + 1);
      return;
    }
    setSubmitting(true);
    try {
      // Back from the challenge page (browser Back): the provider must leave the challenge first.
      if (data.status === 'mfaChallenge') await previousStep(data.stateToken);
      const answer = await sendFactorCode(factor.id, data.stateToken);
      const outcome = await completeSignIn(answer, {
        challengePath: page.nextUrl ?? '/login/verify/challenge',
      });
      if (outcome.kind !== 'mfaChallenge')
        throw new Error(`Unexpected answer ${answer.status} to a code request`);
      auditMfaSend(factor.type, true);
    } catch (failure) {
      const reason = identityFailureOf(failure);
      auditMfaSend(
        factor.type,
        false,
        reason === 'network'
          ? 'Network communication problem'
          : reason === 'sessionExpired'
            ? 'Token expired'
            : 'Authentication failure',
      );
      // Spec: on failure the session is cleared and the user returns to the start page.
      await signOut({
        reason: reason === 'rateLimited' ? 'tooManyAttempts' : 'journeyFailed',
        loginPath: settings.loginPage,
      });
    }
  };

  return (
    <article className="page">
      <h1>{page.heading}</h1>
      <ErrorSummary
        title={pageMessage(page, 'errorSummaryHeading')}
        errors={error ? [{ id: inputId, message: error }] : []}
        focusKey={revealed}
      />
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      {options.length === 0 ? (
        <RichText
          html={pageMessage(page, 'noFactorsMessage', { phone: settings.infinityPhoneTracking })}
          className="inset-text"
        />
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
          <RadioGroup
            id={inputId}
            name={field.name}
            legend={field.label}
            hint={field.subLabel}
            options={options}
            value={chosen}
            error={error}
            onChange={(value) => setChosen(value)}
          />
          <Button
            type="submit"
            disabled={chosen === null}
            submitting={submitting}
            submittingText={settings.commonTexts['sending']}
            onDisabledClick={() => setRevealed((n) => n + 1)}
          >
            {page.submitText ?? 'Send code'}
          </Button>
        </form>
      )}
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
