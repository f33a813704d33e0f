import type { BlockOf } from '@portal/contracts/content';
import { checkNewPassword } from '@portal/contracts/field-rules';
import type { MfaMethod } from '@portal/contracts/profile';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CodeInput } from '../../../components/ui/code-input';
import { Modal } from '../../../components/ui/modal';
import { PasswordField } from '../../../components/ui/password-field';
import { PasswordRequirements } from '../../../components/ui/password-requirements';
import { RadioGroup } from '../../../components/ui/radio-group';
import { ResendButton } from '../../../components/ui/resend-button';
import { SummaryRow } from '../../../components/ui/summary-row';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../session/tokens';
import { changePassword, passwordErrorCode } from '../api/change-password';
import { fetchFactorName } from '../api/get-mfa-display-name';
import { fetchProfileForPassword } from '../api/get-profile';
import { requestPasswordCode } from '../api/request-profile-code';
import { formatPasswordDate } from '../password-date';
import { useSignInMethods } from '../use-sign-in-methods';
import { useAppQueryClient } from '../../../session/query-client';

type Block = BlockOf<'passwordDetails'>;
type Field = Block['modal']['fields'][number];

/** One of the modal's fields; the content contract requires each of them, so a missing one is a content fault. */
function field(block: Block, name: string, type?: string): Field {
  const found = block.modal.fields.find((f) => f.name === name && (!type || f.type === type));
  if (!found)
    throw new Error(`The passwordDetails content has no ${name} field${type ? ` of type ${type}` : ''}`);
  return found;
}

/** How the code comes: sent by text or call, or shown by the customer's authenticator app. */
type CodeMethod = MfaMethod | 'app';

/**
 * Spec §4 "Password change modal": closed, step one (choose text, call or, with an app set up, the app),
 * step two (code and passwords). With the app nothing is sent: step two asks for the code it shows.
 */
function ChangePasswordModal({
  block,
  customerId,
  onClose,
  onChanged,
}: {
  block: Block;
  customerId: string;
  onClose: () => void;
  onChanged: (passwordLastUpdated: string) => void;
}) {
  const settings = useSiteSettings();
  const modal = block.modal;
  const [step, setStep] = useState<'one' | 'two'>('one');
  const [method, setMethod] = useState<CodeMethod | null>(null);
  const [codeLength, setCodeLength] = useState<5 | 6>(6);
  const [boxes, setBoxes] = useState<string[]>([]);
  const [code, setCode] = useState('');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const [failure, setFailure] = useState<1 | 2 | 3 | 4 | null>(null);
  const [sendFailed, setSendFailed] = useState(false);
  const [resent, setResent] = useState(0);

  const factors = useQuery(
    {
      queryKey: ['profile', 'factors', customerId],
      queryFn: async ({ signal }) => ({
        sms: await fetchFactorName(customerId, 'sms', signal),
        call: await fetchFactorName(customerId, 'call', signal),
      }),
      retry: false,
    },
    useAppQueryClient(),
  );
  const { methods } = useSignInMethods(customerId);
  const hasApp = !!methods.data?.some((m) => m.type === 'totp' && m.status === 'ACTIVE');
  const fromApp = method === 'app';
  const masked = (name: string | null) => name?.replace(/^(Text message to|Phone call to)\s+/, '') ?? '';
  const options = [
    factors.data?.sms && {
      value: 'sms',
      label: fillPlaceholders(modal.smsOptionLabel, { number: masked(factors.data.sms) }),
    },
    factors.data?.call && {
      value: 'call',
      label: fillPlaceholders(modal.callOptionLabel, { number: masked(factors.data.call) }),
    },
    hasApp && { value: 'app', label: modal.appOptionLabel },
  ].filter((o): o is { value: string; label: string } => !!o);

  const sendCode = async () => {
    if (!method || busy) {
      setRevealed(true);
      return;
    }
    if (method === 'app') {
      // Nothing to send: the app shows the code.
      setCodeLength(6);
      setBoxes([]);
      setCode('');
      setFailure(null);
      setRevealed(false);
      setSendFailed(false);
      setStep('two');
      return;
    }
    setBusy(true);
    setSendFailed(false);
    try {
      const sent = await requestPasswordCode(customerId, method);
      setCodeLength(sent.codeLength);
      setBoxes([]);
      setCode('');
      setFailure(null);
      setRevealed(false);
      setResent(0);
      setStep('two');
    } catch {
      setSendFailed(true);
    } finally {
      setBusy(false);
    }
  };

  /** Step two's resend: the same send-code call for the chosen method; a new code replaces the boxes' value. */
  const resendCode = async () => {
    if (!method || method === 'app') return;
    setSendFailed(false);
    setResent(0);
    try {
      const sent = await requestPasswordCode(customerId, method);
      setCodeLength(sent.codeLength);
      setBoxes([]);
      setCode('');
      setFailure((was) => (was === 1 ? null : was));
      setResent((n) => n + 1);
    } catch {
      setSendFailed(true);
    }
  };

  const newCheck = checkNewPassword(next, settings.globalPasswordRequirementsBlock);
  const codeField = field(block, 'mfaPassCode', codeLength === 5 ? 'landlineCode' : 'mobileCode');
  const currentField = field(block, 'currentPassword');
  const newField = field(block, 'newPassword');
  const codeError =
    failure === 1 ? (
      <RichText html={fromApp ? modal.appCodeErrorMessage : modal.codeErrorMessage} />
    ) : revealed && code.length !== codeLength ? (
      codeField.errorMessage
    ) : null;
  const currentError =
    failure === 2 ? (
      <RichText html={modal.currentPasswordErrorMessage} />
    ) : revealed && current === '' ? (
      (currentField.requiredMessage ?? currentField.errorMessage)
    ) : null;
  const newError =
    failure === 3 ? (
      <RichText html={modal.passwordErrorMessage} />
    ) : revealed && !newCheck.valid ? (
      newField.errorMessage
    ) : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (code.length !== codeLength || current === '' || !newCheck.valid) {
      setRevealed(true);
      return;
    }
    setBusy(true);
    try {
      const changed = await changePassword(customerId, {
        mfaPassCode: code,
        currentPassword: current,
        newPassword: next,
        ...(fromApp ? { codeFrom: 'app' as const } : {}),
      });
      onChanged(changed.passwordLastUpdated);
    } catch (error) {
      setFailure(passwordErrorCode(error));
      // An app code is spent or wrong: the next try needs the code the app shows then.
      if (fromApp && passwordErrorCode(error) === 1) {
        setBoxes([]);
        setCode('');
      }
      if (passwordErrorCode(error) === 2) setCurrent('');
      if (passwordErrorCode(error) === 3) setNext('');
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={step === 'one' ? modal.stepOneHeading : modal.stepTwoHeading}
      onClose={onClose}
      closeLabel={modal.cancelText}
    >
      {step === 'one' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void sendCode();
          }}
        >
          <RichText html={modal.stepOneBody} />
          {sendFailed && (
            <div role="alert">
              <RichText html={modal.updateErrorMessage} className="message message--error" />
            </div>
          )}
          {factors.isPending || methods.isPending ? (
            <p className="block-loading">{modal.loadingText}</p>
          ) : (
            <RadioGroup
              id={`${block.id}-method`}
              name="method"
              legend={modal.stepOneHeading}
              options={options}
              value={method}
              error={revealed && !method ? modal.methodRequiredMessage : null}
              onChange={(value) => setMethod(value as CodeMethod)}
            />
          )}
          <div className="cta-list">
            {/* As on the sign-in verify page: available once a way is chosen. */}
            <Button
              type="submit"
              disabled={method === null}
              submitting={busy}
              submittingText={settings.commonTexts['loading']}
              onDisabledClick={() => setRevealed(true)}
            >
              {fromApp ? modal.continueText : modal.sendCodeText}
            </Button>
            <Button variant="secondary" onClick={onClose}>
              {modal.cancelText}
            </Button>
          </div>
        </form>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <RichText html={fromApp ? modal.appStepTwoBody : modal.stepTwoBody} />
          {(failure === 4 || sendFailed) && (
            <div role="alert">
              <RichText html={modal.updateErrorMessage} className="message message--error" />
            </div>
          )}
          <div aria-live="polite">
            {resent > 0 && (
              <RichText key={resent} html={modal.resendSuccessMessage} className="message message--success" />
            )}
          </div>
          <CodeInput
            id={`${block.id}-code`}
            length={codeLength}
            value={boxes}
            onChange={(next, state) => {
              setBoxes(next);
              setCode(state.code);
              if (failure === 1) setFailure(null);
            }}
            legend={codeField.label}
            hint={codeField.subLabel}
            error={codeError}
          />
          {!fromApp && (
            <ResendButton
              onResend={() => void resendCode()}
              countdownText={modal.resendWaitText}
              availableText={modal.resendAvailableText}
              disabled={busy}
            >
              {modal.resendText}
            </ResendButton>
          )}
          <PasswordField
            id={`${block.id}-current`}
            label={currentField.label}
            autoComplete="current-password"
            value={current}
            onChange={(value) => setCurrent(value)}
            error={currentError}
            showText={settings.commonTexts['showPassword']}
            hideText={settings.commonTexts['hidePassword']}
            showLabel={settings.commonTexts['showPasswordLabel']}
            hideLabel={settings.commonTexts['hidePasswordLabel']}
          />
          <PasswordField
            id={`${block.id}-new`}
            label={newField.label}
            autoComplete="new-password"
            value={next}
            onChange={(value) => setNext(value)}
            error={newError}
            showText={settings.commonTexts['showPassword']}
            hideText={settings.commonTexts['hidePassword']}
            showLabel={settings.commonTexts['showPasswordLabel']}
            hideLabel={settings.commonTexts['hidePasswordLabel']}
            describedBy={`${block.id}-requirements`}
          />
          <PasswordRequirements
            id={`${block.id}-requirements`}
            value={next}
            settings={settings.globalPasswordRequirementsBlock}
          />
          <div className="cta-list">
            <Button type="submit" submitting={busy} submittingText={settings.commonTexts['loading']}>
              {modal.submitText}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setStep('one');
                setFailure(null);
                setRevealed(false);
                setSendFailed(false);
              }}
            >
              {modal.backText}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/**
 * Password details (spec customer-data §2, §4, §8): when the password was last changed ("3rd March 2024
 * 2:05pm"), the texts when that cannot be read (400, 404 or 502: unable to retrieve; a missing profile or
 * an invalid date: invalid date), and the change in a two-step one-time-code modal.
 */
function PasswordDetailsBlock({ block }: { block: Block }) {
  const user = useCurrentUser();
  const queryClient = useAppQueryClient();
  const customerId = user?.customerId;
  const [open, setOpen] = useState(false);
  const [success, setSuccess] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const profile = useQuery(
    {
      queryKey: ['profile', 'password', customerId ?? 'none'],
      queryFn: ({ signal }) => fetchProfileForPassword(customerId!, signal),
      enabled: !!customerId,
      retry: false,
    },
    queryClient,
  );
  if (!customerId) return null;
  const headingId = `${block.id}-heading`;
  let lastUpdated: string;
  if (profile.isPending) lastUpdated = '…';
  else if (profile.isError) {
    const status = profile.error instanceof ApiError ? profile.error.status : 0;
    lastUpdated = [400, 404, 502].includes(status) ? block.unableToRetrieveText : block.invalidDateText;
  } else lastUpdated = formatPasswordDate(profile.data.passwordLastUpdated) ?? block.invalidDateText;

  return (
    <section className="content-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{block.heading}</h2>
      <div aria-live="polite">
        {success && <RichText html={block.modal.successMessage} className="message message--success" />}
      </div>
      <dl className="summary-list">
        <SummaryRow label={block.lastUpdatedLabel}>{lastUpdated}</SummaryRow>
      </dl>
      <Button
        ref={opener}
        variant="secondary"
        onClick={() => {
          setSuccess(false);
          setOpen(true);
        }}
      >
        {block.changeButtonText}
      </Button>
      {open && (
        <ChangePasswordModal
          block={block}
          customerId={customerId}
          onClose={() => {
            setOpen(false);
            opener.current?.focus();
          }}
          onChanged={(passwordLastUpdated) => {
            queryClient.setQueryData(['profile', 'password', customerId], (old: typeof profile.data) =>
              old ? { ...old, passwordLastUpdated } : old,
            );
            setOpen(false);
            setSuccess(true);
            opener.current?.focus();
          }}
        />
      )}
    </section>
  );
}

export default PasswordDetailsBlock;
