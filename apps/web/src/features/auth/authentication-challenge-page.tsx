import type { ContentBlock, FormField } from '@portal/contracts/content';
import { codeLengthOf } from '@portal/contracts/identity';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { CodeInput, type CodeInputHandle } from '../../components/ui/code-input';
import { ErrorSummary } from '../../components/ui/error-summary';
import { FormError } from '../../components/ui/form-error';
import { ResendButton } from '../../components/ui/resend-button';
import { ContentBlocks } from '../../content/content-blocks';
import { CallToActionList } from '../../content/call-to-action';
import { ContentPageBody } from '../../content/content-page-body';
import type { PageProps } from '../../content/page-props';
import { RichText } from '../../content/rich-text';
import { useSiteSettings } from '../../content/use-site-settings';
import { auditMfaSend, auditMfaVerify } from '../../session/auth-audit';
import { resendFactorCode } from '../../session/api/factor-resend';
import { verifyFactorCode } from '../../session/api/factor-verify';
import { identityFailureOf } from '../../session/api/identity-failure';
import { completeSignIn } from '../../session/sign-in';
import { signOut } from '../../session/sign-out';
import { useAuthSnapshot } from '../../session/session-store';
import { prefetchTokenClient } from '../../session/tokens';
import { codeValue, emptyCode } from '../../lib/validation/challenge-code';
import { fieldId, validateField } from '../../lib/validation/field';
import { shouldShowFormError } from '../../lib/validation/form';
import { ProblemAlert } from './components/problem-alert';
import { prefetchSignedInCode } from './prefetch-signed-in';
import { pageMessage, plainText, type MessageKey } from './utils/page-messages';

const codeField = (length: 5 | 6): FormField => ({
  id: length === 6 ? 'challenge-mobile-code' : 'challenge-landline-code',
  name: 'passCode',
  type: length === 6 ? 'mobileCode' : 'landlineCode',
  label: 'Security code',
  errorMessage: `Enter the ${length}-digit code, using numbers only`,
  required: true,
  disabled: false,
  minLength: length,
  maxLength: length,
  autocomplete: 'one-time-code',
});

/** The content field for this many boxes: showWhen mobile (6) or landline (5), else by type. */
export function challengeField(fields: readonly FormField[], length: 5 | 6): FormField {
  const kind = length === 6 ? 'mobile' : 'landline';
  return (
    fields.find((f) => f.showWhen === kind) ??
    fields.find((f) => f.type === (length === 6 ? 'mobileCode' : 'landlineCode')) ??
    codeField(length)
  );
}

/**
 * Enter the security code (spec sections 4, 5, 8): six boxes for a text or a call to a mobile, five for a
 * landline; digits only; a whole code typed, pasted or filled by the phone spreads across the boxes.
 * Continue works only with every box filled. A wrong code shows content submitErrorMessage and empties
 * the boxes; the right one signs in (token exchange, then RelayState or the marketing step). "Send a new
 * code" waits 30 seconds after the page opens and after each use; if sending fails, the customer is
 * signed out and starts again. The sent-code line and the "Not received a code?" help speak of a text or
 * a call, as the code was sent (content codeSentText / codeSentByCallText, helpText / helpByCallText).
 */
export default function AuthenticationChallengePage({ page }: PageProps<'AuthenticationChallengePage'>) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const { data } = useAuthSnapshot();
  const challenge =
    data?.status === 'mfaChallenge' && data.stateToken && data.factorId && data.factorType
      ? {
          stateToken: data.stateToken,
          factorId: data.factorId,
          factorType: data.factorType,
          phoneNumber: data.phoneNumber ?? '',
        }
      : null;
  const usable = challenge !== null;
  const length = codeLengthOf({
    factorType: data?.factorType ?? 'sms',
    landlineIsAMobile: data?.landlineIsAMobile ?? false,
  });
  const field = challengeField(page.fields, length);
  const [boxes, setBoxes] = useState<string[]>(() => emptyCode(length));
  const [revealed, setRevealed] = useState(0);
  const [problem, setProblem] = useState<{ key: MessageKey; attempt: number } | null>(null);
  const [resent, setResent] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const wrongCodes = useRef(0);
  const attempts = useRef(0);
  const codeInput = useRef<CodeInputHandle>(null);
  const formErrorId = useId();

  useEffect(() => {
    if (!usable && !submitting) navigate(settings.loginPage, { replace: true });
  }, [usable, submitting, navigate, settings.loginPage]);

  // The right code starts the token exchange: have its library here by then, not fetched after it. Then,
  // while the customer reads and types the code, the signed-in page's code, once the page is idle; not
  // from the moment Continue is pressed (decision 033).
  useEffect(() => {
    if (!usable || submitting) return;
    return prefetchSignedInCode({ after: prefetchTokenClient() });
  }, [usable, submitting]);

  if (!challenge) return null;
  const { stateToken, factorId, factorType, phoneNumber } = challenge;

  const code = codeValue(boxes);
  const validation = validateField(field, code);
  const inlineError = revealed > 0 && !validation.valid ? validation.error : null;
  // Spec section 5: the page-level error shows while the code has been started but is not yet valid,
  // until the summary at the top says what is wrong (the one error pattern of every form).
  const summaryShows = problem !== null || inlineError !== null;
  const formError =
    shouldShowFormError([validation]) && !summaryShows ? pageMessage(page, 'formErrorMessage') : null;
  const inputId = fieldId(field);

  const show = (key: MessageKey) => {
    attempts.current += 1;
    setProblem({ key, attempt: attempts.current });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!validation.valid) {
      setRevealed((n) => n + 1);
      return;
    }
    setSubmitting(true);
    setProblem(null);
    let redirecting = false;
    try {
      const answer = await verifyFactorCode(factorId, stateToken, code);
      auditMfaVerify(factorType, true);
      const outcome = await completeSignIn(answer);
      redirecting = outcome.kind === 'redirecting';
      if (!redirecting) show('apiError');
    } catch (failure) {
      const reason = identityFailureOf(failure);
      auditMfaVerify(
        factorType,
        false,
        reason === 'network'
          ? 'Network communication problem'
          : reason === 'sessionExpired'
            ? 'Token expired'
            : 'Authentication failure',
      );
      if (reason === 'wrongCode') {
        wrongCodes.current += 1;
        setBoxes(emptyCode(length));
        setRevealed(0);
        show('submitErrorMessage');
      } else if (reason === 'sessionExpired') {
        // After wrong codes the provider ends the transaction (lockout); otherwise it simply expired.
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

  const onResend = async () => {
    setProblem(null);
    try {
      const answer = await resendFactorCode(factorId, stateToken);
      const outcome = await completeSignIn(answer, { navigate: false });
      if (outcome.kind !== 'mfaChallenge') throw new Error(`Unexpected answer ${answer.status} to a resend`);
      auditMfaSend(factorType, true);
      setBoxes(emptyCode(length));
      setResent((n) => n + 1);
      codeInput.current?.focus();
    } catch (failure) {
      const reason = identityFailureOf(failure);
      auditMfaSend(
        factorType,
        false,
        reason === 'network' ? 'Network communication problem' : 'Authentication failure',
      );
      // Spec: a resend failure signs the user out.
      await signOut({
        reason: reason === 'rateLimited' ? 'tooManyAttempts' : 'journeyFailed',
        loginPath: settings.loginPage,
      });
    }
  };

  const sentKey: MessageKey = factorType === 'call' ? 'codeSentByCallText' : 'codeSentText';
  // "Not received a code?" in the words of the channel: a call is not a text message.
  const helpKey: MessageKey = factorType === 'call' ? 'helpByCallText' : 'helpText';
  const help: ContentBlock = {
    id: 'challenge-help',
    type: 'richText',
    heading: plainText(pageMessage(page, 'helpHeading')),
    html: pageMessage(page, helpKey, { phone: settings.infinityPhoneTracking }),
  };
  const lockedOut = problem?.key === 'lockedOutMessage';

  return (
    <article className="page">
      <h1>{page.heading}</h1>
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
      {resent > 0 && !problem ? (
        <div role="status">
          <RichText html={pageMessage(page, 'resendSuccessText')} className="inset-text" />
        </div>
      ) : null}
      <RichText html={pageMessage(page, sentKey, { number: phoneNumber })} />
      <ContentPageBody page={{ ...page, blocks: [], callsToAction: [] }} />
      {lockedOut ? (
        <Button
          onClick={() =>
            void signOut({ reason: 'journeyLeft', navigate: true, loginPath: settings.loginPage })
          }
        >
          {settings.commonTexts['continue'] ?? 'Continue'}
        </Button>
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
          <CodeInput
            ref={codeInput}
            id={inputId}
            length={length}
            value={boxes}
            legend={field.label}
            hint={field.subLabel}
            error={inlineError}
            disabled={submitting}
            onChange={(next) => {
              setBoxes(next);
              setProblem(null);
            }}
          />
          {formError ? (
            <FormError id={formErrorId}>
              <RichText html={formError} />
            </FormError>
          ) : null}
          <Button
            type="submit"
            disabled={!validation.valid}
            submitting={submitting}
            submittingText={settings.commonTexts['loading']}
            onDisabledClick={() => setRevealed((n) => n + 1)}
            aria-describedby={formError ? formErrorId : undefined}
          >
            {page.submitText ?? 'Continue'}
          </Button>
          <ResendButton
            onResend={() => void onResend()}
            delayMs={page.resendDelaySeconds * 1000}
            countdownText={plainText(pageMessage(page, 'resendWaitText'))}
            disabled={submitting}
          >
            {plainText(pageMessage(page, 'resendText'))}
          </ResendButton>
        </form>
      )}
      <ContentBlocks blocks={[help, ...page.blocks]} />
      <CallToActionList items={page.callsToAction} />
    </article>
  );
}
