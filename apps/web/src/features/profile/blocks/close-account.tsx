import type { BlockOf } from '@portal/contracts/content';
import type { MfaMethod } from '@portal/contracts/profile';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { RadioGroup } from '../../../components/ui/radio-group';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { ApiError } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';
import { clearSignOutNotice, signOut } from '../../../session/sign-out';
import { useCurrentUser } from '../../../session/tokens';
import { closeOnlineAccount } from '../api/close-account';
import { fetchFactorName } from '../api/get-mfa-display-name';
import { requestPasswordCode } from '../api/request-profile-code';
import { CodeStep } from '../components/code-step';
import { ReauthenticationCancelled, useReauthenticate } from '../reauthenticate';

type Block = BlockOf<'closeAccount'>;

/**
 * Close your online account (issue 26 point 6, decision 026): what closing keeps and removes, a code by
 * text or call (the password change's code), then the code closes the account. The browser is then
 * signed out and shown the "your online account is closed" page. After the password first when the
 * sign-in is not recent.
 */
function CloseAccountBlock({ block }: { block: Block }) {
  const settings = useSiteSettings();
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const [step, setStep] = useState<'choose' | 'code'>('choose');
  const [method, setMethod] = useState<MfaMethod | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [codeLength, setCodeLength] = useState<5 | 6>(6);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<'tooMany' | 'error' | null>(null);
  const [wrongCode, setWrongCode] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const { guarded, dialog } = useReauthenticate(customerId, block.reauthenticate);

  const factors = useQuery(
    {
      queryKey: ['profile', 'factors', customerId ?? 'none'],
      queryFn: async ({ signal }) => ({
        sms: await fetchFactorName(customerId!, 'sms', signal),
        call: await fetchFactorName(customerId!, 'call', signal),
      }),
      enabled: !!customerId,
      retry: false,
    },
    useAppQueryClient(),
  );
  if (!customerId) return null;
  const masked = (name: string | null | undefined) =>
    name?.replace(/^(Text message to|Phone call to)\s+/, '') ?? '';
  const options = [
    factors.data?.sms && {
      value: 'sms',
      label: fillPlaceholders(block.smsOptionLabel, { number: masked(factors.data.sms) }),
    },
    factors.data?.call && {
      value: 'call',
      label: fillPlaceholders(block.callOptionLabel, { number: masked(factors.data.call) }),
    },
  ].filter((o): o is { value: string; label: string } => !!o);
  const problemHtml =
    problem === 'tooMany' ? block.tooManyMessage : problem === 'error' ? block.errorMessage : null;
  const headingId = `${block.id}-heading`;

  const send = async (): Promise<boolean> => {
    if (!method) return false;
    setProblem(null);
    try {
      const sent = await requestPasswordCode(customerId, method);
      setCodeLength(sent.codeLength);
      return true;
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 429 ? 'tooMany' : 'error');
      return false;
    }
  };

  const choose = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAttempt((n) => n + 1);
    if (!method) {
      setRevealed(true);
      return;
    }
    setBusy(true);
    const sent = await send();
    setBusy(false);
    if (sent) {
      setWrongCode(false);
      setStep('code');
    }
  };

  const close = async (code: string) => {
    setBusy(true);
    setProblem(null);
    setWrongCode(false);
    try {
      await guarded(() => closeOnlineAccount(customerId, code));
    } catch (error) {
      setBusy(false);
      if (error instanceof ReauthenticationCancelled) return;
      if (error instanceof ApiError && error.status === 400) setWrongCode(true);
      else setProblem(error instanceof ApiError && error.status === 429 ? 'tooMany' : 'error');
      return;
    }
    // The account is gone, with every session: forget this browser's and show the closed page.
    await signOut({ reason: 'user', loginPath: block.closedPath });
    clearSignOutNotice();
  };

  const methodError = revealed && !method ? block.methodRequiredMessage : null;
  return (
    <section className="content-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <RichText html={block.body} />
      {step === 'choose' ? (
        <>
          <ErrorSummary
            errors={[
              ...(methodError ? [{ id: `${block.id}-method`, message: methodError }] : []),
              ...(problemHtml ? [{ message: <RichText html={problemHtml} /> }] : []),
            ]}
            title={settings.commonTexts['errorSummaryHeading']}
            focusKey={attempt}
          />
          <form noValidate onSubmit={(event) => void choose(event)}>
            {factors.isPending ? (
              <p className="block-loading">{block.loadingText}</p>
            ) : (
              <RadioGroup
                id={`${block.id}-method`}
                name="close-account-method"
                legend={block.methodLegend}
                options={options}
                value={method}
                error={methodError}
                onChange={(value) => setMethod(value as MfaMethod)}
              />
            )}
            <div className="cta-list">
              <Button type="submit" submitting={busy} submittingText={settings.commonTexts['loading']}>
                {block.sendCodeText}
              </Button>
            </div>
          </form>
        </>
      ) : (
        <CodeStep
          id={block.id}
          texts={block.code}
          destination={masked(method ? factors.data?.[method] : null)}
          codeLength={codeLength}
          {...(codeLength === 5
            ? { hint: block.landlineCodeHint, lengthErrorMessage: block.landlineCodeErrorMessage }
            : {})}
          wrongCode={wrongCode}
          problem={problemHtml}
          busy={busy}
          submitVariant="warning"
          onSubmit={(code) => void close(code)}
          onResend={send}
          onBack={() => {
            setProblem(null);
            setStep('choose');
          }}
        />
      )}
      {dialog}
    </section>
  );
}

export default CloseAccountBlock;
