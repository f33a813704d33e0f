import type { ContactChangeFlow } from '@portal/contracts/content';
import { isValidEmail } from '@portal/contracts/field-rules';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { TextField } from '../../../components/ui/text-field';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { ApiError } from '../../../lib/api-client';
import { confirmEmailChange } from '../api/confirm-email-change';
import { confirmMobileChange } from '../api/confirm-mobile-change';
import { startEmailChange } from '../api/start-email-change';
import { startMobileChange } from '../api/start-mobile-change';
import { useKeepDraftOnSignOut, type KeptDraftState } from '../../../session/drafts';
import { ReauthenticationCancelled } from '../reauthenticate';
import { CodeStep } from './code-step';

type Kind = 'email' | 'mobile';
type Problem = 'tooMany' | 'inUse' | 'error';
type Guarded = <T>(change: () => Promise<T>) => Promise<T>;

/** National digits of a UK number as typed (spaces, dashes, +44 or 0044 allowed). */
const nationalDigits = (phone: string) => {
  const digits = phone.replace(/\D/g, '');
  if (digits.startsWith('0044')) return `0${digits.slice(4)}`;
  if (digits.startsWith('44') && digits.length === 12) return `0${digits.slice(2)}`;
  return digits;
};
/** A UK mobile: 07 and nine more digits, as the server checks it. */
const isUkMobile = (phone: string) => /^07\d{9}$/.test(nationalDigits(phone));

const problemOf = (error: unknown): Problem =>
  error instanceof ApiError && error.status === 429
    ? 'tooMany'
    : error instanceof ApiError && error.status === 409
      ? 'inUse'
      : 'error';

/**
 * One change of the contact details (issue 26): the new email address (typed twice) or mobile number,
 * then the 6-digit code sent to it. Each step's heading takes focus when it appears; problems show in the
 * error summary and beside the field, and what was typed stays. Both calls go through `guarded`, which
 * asks for the password first when the sign-in is not recent. What was typed (never the code) is kept in
 * the browser if the inactivity timer signs the customer out, and given back at the next sign-in with a
 * line saying so (issue 40 point 7).
 */
export function ContactChangeForm({
  kind,
  id,
  texts,
  heading,
  customerId,
  current,
  guarded,
  draftName,
  draft,
  draftTexts,
  onDone,
  onCancel,
  headingLevel = 3,
}: {
  kind: Kind;
  id: string;
  texts: ContactChangeFlow;
  heading: string;
  /** One below the block's own heading: 2 when the block has none (headings never skip a level). */
  headingLevel?: 2 | 3;
  customerId: string;
  current: string | null;
  guarded: Guarded;
  /** The kept draft's name, what was kept for this form, and the line and button that say so. */
  draftName: string;
  draft: KeptDraftState;
  draftTexts: { kept: string; discard: string };
  onDone: (value: string) => void;
  onCancel: () => void;
}) {
  const settings = useSiteSettings();
  const Heading = `h${headingLevel}` as const;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [step, setStep] = useState<'enter' | 'code'>('enter');
  const keptText = (field: string) => {
    const kept = draft.kept?.[field];
    return typeof kept === 'string' ? kept : '';
  };
  const [value, setValue] = useState(() => keptText('value'));
  const [again, setAgain] = useState(() => keptText('again'));
  const [revealed, setRevealed] = useState(false);
  const [serverField, setServerField] = useState<{ value?: boolean; again?: boolean }>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [wrongCode, setWrongCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (step === 'enter') headingRef.current?.focus();
  }, [step]);
  // Kept at an inactivity sign-out: the new address or number as typed (at the code step too, to send
  // again), never the code.
  useKeepDraftOnSignOut(draftName, customerId, () =>
    value.trim() === '' && again.trim() === '' ? null : { value, again },
  );

  const same =
    current !== null &&
    (kind === 'email'
      ? value.trim().toLowerCase() === current.trim().toLowerCase()
      : nationalDigits(value) === nationalDigits(current));
  const valueError =
    revealed && value.trim() === ''
      ? texts.requiredMessage
      : revealed && (kind === 'email' ? !isValidEmail(value) : !isUkMobile(value))
        ? texts.invalidMessage
        : revealed && same
          ? texts.sameMessage
          : serverField.value
            ? texts.invalidMessage
            : null;
  const againError =
    kind !== 'email'
      ? null
      : (revealed && value.trim().toLowerCase() !== again.trim().toLowerCase()) || serverField.again
        ? (texts.mismatchMessage ?? texts.invalidMessage)
        : null;
  const problemHtml =
    problem === 'tooMany'
      ? texts.tooManyMessage
      : problem === 'inUse'
        ? (texts.inUseMessage ?? texts.errorMessage)
        : problem === 'error'
          ? texts.errorMessage
          : null;

  const send = async (): Promise<boolean> => {
    setProblem(null);
    setServerField({});
    try {
      if (kind === 'email') {
        await guarded(() =>
          startEmailChange(customerId, { emailAddress: value.trim(), confirmEmailAddress: again.trim() }),
        );
      } else {
        await guarded(() => startMobileChange(customerId, value.trim()));
      }
      return true;
    } catch (error) {
      if (error instanceof ReauthenticationCancelled) return false;
      if (error instanceof ApiError && error.status === 400) {
        const fields = (error.body as { fieldErrors?: Record<string, string> } | null)?.fieldErrors ?? {};
        setServerField({
          value: 'emailAddress' in fields || 'mobileNumber' in fields || !('confirmEmailAddress' in fields),
          again: 'confirmEmailAddress' in fields,
        });
      } else setProblem(problemOf(error));
      return false;
    }
  };

  const submitValue = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAttempt((n) => n + 1);
    setServerField({});
    const valid =
      value.trim() !== '' &&
      (kind === 'email' ? isValidEmail(value) : isUkMobile(value)) &&
      !same &&
      (kind !== 'email' || value.trim().toLowerCase() === again.trim().toLowerCase());
    if (!valid) {
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

  const confirm = async (code: string) => {
    setBusy(true);
    setProblem(null);
    setWrongCode(false);
    try {
      const answer =
        kind === 'email'
          ? (await guarded(() => confirmEmailChange(customerId, code))).emailAddress
          : (await guarded(() => confirmMobileChange(customerId, code))).mobileNumber;
      draft.sent();
      onDone(answer);
    } catch (error) {
      if (error instanceof ReauthenticationCancelled) return;
      if (error instanceof ApiError && error.status === 400) setWrongCode(true);
      else setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  if (step === 'code') {
    return (
      <section className="contact-change" aria-label={heading}>
        <CodeStep
          id={id}
          headingLevel={headingLevel}
          texts={texts.code}
          destination={kind === 'email' ? value.trim().toLowerCase() : value.trim()}
          codeLength={6}
          wrongCode={wrongCode}
          problem={problemHtml}
          busy={busy}
          onSubmit={(code) => void confirm(code)}
          onResend={send}
          onBack={() => {
            setProblem(null);
            setStep('enter');
          }}
        />
      </section>
    );
  }

  const errors = [
    ...(valueError ? [{ id: `${id}-value`, message: valueError }] : []),
    ...(againError ? [{ id: `${id}-again`, message: againError }] : []),
    ...(problemHtml ? [{ message: <RichText html={problemHtml} /> }] : []),
  ];
  return (
    <section className="contact-change" aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        {heading}
      </Heading>
      <ErrorSummary errors={errors} title={settings.commonTexts['errorSummaryHeading']} focusKey={attempt} />
      {draft.restored && (
        <div className="inset-text" role="status">
          <p>{draftTexts.kept}</p>
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              draft.discard();
              setValue('');
              setAgain('');
            }}
          >
            {draftTexts.discard}
          </Button>
        </div>
      )}
      {texts.body && <RichText html={texts.body} />}
      <form noValidate onSubmit={(event) => void submitValue(event)}>
        <TextField
          id={`${id}-value`}
          label={texts.fieldLabel}
          hint={texts.fieldHint}
          type={kind === 'email' ? 'email' : 'tel'}
          autoComplete={kind === 'email' ? 'email' : 'tel'}
          spellCheck={false}
          value={value}
          onChange={(next) => setValue(next)}
          error={valueError}
          required
        />
        {kind === 'email' && (
          <TextField
            id={`${id}-again`}
            label={texts.confirmFieldLabel ?? texts.fieldLabel}
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={again}
            onChange={(next) => setAgain(next)}
            error={againError}
            required
          />
        )}
        <div className="cta-list">
          <Button type="submit" submitting={busy} submittingText={settings.commonTexts['loading']}>
            {texts.sendCodeText}
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              draft.discard();
              onCancel();
            }}
          >
            {texts.cancelText}
          </Button>
        </div>
      </form>
    </section>
  );
}
