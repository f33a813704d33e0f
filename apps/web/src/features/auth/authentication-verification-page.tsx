import type { FormField } from '@portal/contracts/content';
import type { SignInFactor } from '@portal/contracts/identity';
import { useEffect, useRef, useState, type FormEvent } from 'react';
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
import { AuthenticatorCodeForm } from './components/authenticator-code-form';
import { ProblemAlert } from './components/problem-alert';
import { isPasskeyCancelled, verifyWithPasskey } from './passkey-step';
import { pageMessage, plainText, type MessageKey } from './utils/page-messages';

const defaultMethodField: FormField = {
  id: 'verify-method',
  name: 'factorType',
  type: 'radio',
  label: 'How would you like to get your code?',
  errorMessage: 'Choose how you would like to get your security code',
  required: true,
  disabled: false,
  options: [
    { id: 'verify-method-sms', label: 'Text message to {number}', value: 'sms' },
    { id: 'verify-method-call', label: 'Phone call to {number}', value: 'call' },
    { id: 'verify-method-totp', label: 'Authenticator app', value: 'totp' },
    { id: 'verify-method-passkey', label: 'A passkey', value: 'webauthn' },
    { id: 'verify-method-backup-code', label: 'A backup code ({count} left)', value: 'backup_code' },
  ],
};

const defaultLabels: Record<SignInFactor['type'], string> = {
  sms: 'Text message to {number}',
  call: 'Phone call to {number}',
  totp: 'Authenticator app',
  backup_code: 'A backup code ({count} left)',
  webauthn: 'A passkey',
};

/** A call to one line of two: content's words for each (`{number}` is the masked number). */
export interface LineLabels {
  mobile: string;
  landline: string;
}

const defaultLineLabels: LineLabels = {
  mobile: 'Phone call to your mobile, {number}',
  landline: 'Phone call to your landline, {number}',
};

/**
 * One radio per factor the customer has, in the provider's order (the one last used first), labelled from
 * content with the masked number or the backup codes left filled in. A customer with calls to two lines
 * (a mobile and a landline, whose masked numbers may well read the same) is told which line each is.
 */
export function factorOptions(
  field: FormField,
  factors: readonly SignInFactor[],
  lineLabels: LineLabels = defaultLineLabels,
) {
  const calls = factors.filter((f) => f.type === 'call').length;
  return factors.map((factor) => {
    const option = field.options?.find((o) => o.value === factor.type);
    const label =
      factor.type === 'call' && calls > 1 && factor.line
        ? lineLabels[factor.line]
        : (option?.label ?? defaultLabels[factor.type]);
    return {
      value: factor.id,
      label: fillPlaceholders(label, {
        number: 'phoneNumber' in factor ? factor.phoneNumber : '',
        count: 'codesLeft' in factor ? factor.codesLeft : '',
      }),
      ...(option?.hint ? { hint: option.hint } : {}),
    };
  });
}

/**
 * Choose how to get the security code (spec section 4): a text message or a voice call, to the masked
 * numbers the identity provider offered, or (issue 25) the authenticator app or a backup code, in the
 * provider's order, the method last used first. Sending asks the provider for a code and opens the
 * challenge page; the app and a backup code send nothing and go straight to entering the code here. On a
 * failure to send, the session is cleared and the customer goes back to the start (the sign-in page).
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
  const [entering, setEntering] = useState<{ id: string; kind: 'totp' | 'backup_code' } | null>(null);
  const [problem, setProblem] = useState<{ key: MessageKey; attempt: number } | null>(null);
  const attempts = useRef(0);
  const chooser = useRef<HTMLHeadingElement>(null);
  const cameBack = useRef(false);

  useEffect(() => {
    // Back from entering an app or backup code: the choice is read again from its heading.
    if (entering === null && cameBack.current) chooser.current?.focus();
  }, [entering]);

  useEffect(() => {
    // Reached without a sign-in in progress (bookmark, back button after finishing): start again.
    if (!usable && !submitting) navigate(settings.loginPage, { replace: true });
  }, [usable, submitting, navigate, settings.loginPage]);

  if (!usable) return null;

  const options = factorOptions(field, factors, {
    mobile: page.messages['callToMobileLabel'] ?? defaultLineLabels.mobile,
    landline: page.messages['callToLandlineLabel'] ?? defaultLineLabels.landline,
  });
  const error = revealed > 0 && chosen === null ? field.errorMessage : null;
  const inputId = fieldId(field);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const factor = factors.find((f) => f.id === chosen);
    if (!factor || !data.stateToken || submitting) {
      setRevealed((n) => n + 1);
      return;
    }
    if (factor.type === 'totp' || factor.type === 'backup_code') {
      setEntering({ id: factor.id, kind: factor.type });
      return;
    }
    if (factor.type === 'webauthn') {
      await passkeyStep(factor.id, data.stateToken);
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

  /** A passkey as the second step: the browser asks for it here; nothing is sent. */
  async function passkeyStep(factorId: string, stateToken: string) {
    const show = (key: MessageKey) => {
      attempts.current += 1;
      setProblem({ key, attempt: attempts.current });
    };
    setSubmitting(true);
    setProblem(null);
    let redirecting = false;
    try {
      // Back from the challenge page (browser Back): the provider must leave the challenge first.
      if (data?.status === 'mfaChallenge') await previousStep(stateToken);
      const outcome = await completeSignIn(await verifyWithPasskey(stateToken, factorId), {
        method: 'webauthn',
      });
      redirecting = outcome.kind === 'redirecting';
      if (!redirecting) show('passkeyStepFailedMessage');
    } catch (failure) {
      const reason = isPasskeyCancelled(failure) ? 'wrongCode' : identityFailureOf(failure);
      if (reason === 'sessionExpired') {
        await signOut({ reason: 'journeyFailed', loginPath: settings.loginPage });
      } else {
        show(reason === 'rateLimited' ? 'tooManyAttemptsMessage' : 'passkeyStepFailedMessage');
      }
    } finally {
      if (!redirecting) setSubmitting(false);
    }
  }

  if (entering && data.stateToken) {
    return (
      <article className="page">
        <AuthenticatorCodeForm
          page={page}
          kind={entering.kind}
          factorId={entering.id}
          stateToken={data.stateToken}
          onBack={() => {
            cameBack.current = true;
            setEntering(null);
          }}
        />
        <CallToActionList items={page.callsToAction} />
      </article>
    );
  }

  const chosenFactor = factors.find((f) => f.id === chosen);
  const sendsNothing =
    chosenFactor?.type === 'totp' ||
    chosenFactor?.type === 'backup_code' ||
    chosenFactor?.type === 'webauthn';

  return (
    <article className="page">
      <h1 ref={chooser} tabIndex={-1}>
        {page.heading}
      </h1>
      {problem ? (
        <ProblemAlert
          title={pageMessage(page, 'errorSummaryHeading')}
          html={pageMessage(page, problem.key)}
          focusKey={problem.attempt}
        />
      ) : (
        <ErrorSummary
          title={pageMessage(page, 'errorSummaryHeading')}
          errors={error ? [{ id: inputId, message: error }] : []}
          focusKey={revealed}
        />
      )}
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
            {sendsNothing ? plainText(pageMessage(page, 'continueText')) : (page.submitText ?? 'Send code')}
          </Button>
        </form>
      )}
      <ContentBlocks blocks={page.blocks} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
