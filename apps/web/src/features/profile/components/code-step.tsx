import type { ContactCodeStep } from '@portal/contracts/content';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { CodeInput } from '../../../components/ui/code-input';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { ResendButton } from '../../../components/ui/resend-button';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';

/** An address or number the customer typed, safe inside content's rich text. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The code step of a change confirmed by a code (a new email address or mobile number, closing the
 * online account): its heading takes focus when it appears; the boxes, a resend and the submit. What the
 * customer typed stays when the code is refused; problems show in the error summary and at the boxes.
 */
export function CodeStep({
  id,
  texts,
  destination,
  codeLength,
  hint,
  lengthErrorMessage,
  wrongCode,
  problem,
  busy,
  submitVariant = 'primary',
  onSubmit,
  onResend,
  onBack,
  headingLevel = 3,
}: {
  id: string;
  texts: ContactCodeStep;
  /** One below the block's own heading: 2 when the block has none (headings never skip a level). */
  headingLevel?: 2 | 3;
  /** The new address or number, or the masked phone: fills `{destination}`. */
  destination: string;
  codeLength: 5 | 6;
  hint?: string;
  lengthErrorMessage?: string;
  /** The server refused the code. */
  wrongCode: boolean;
  /** Any other failure, from content (rich text). */
  problem: string | null;
  busy: boolean;
  submitVariant?: 'primary' | 'warning';
  onSubmit: (code: string) => void;
  /** Sends a new code; resolves true when it went. */
  onResend: () => Promise<boolean>;
  onBack: () => void;
}) {
  const settings = useSiteSettings();
  const heading = useRef<HTMLHeadingElement>(null);
  const Heading = `h${headingLevel}` as const;
  const [boxes, setBoxes] = useState<string[]>([]);
  const [code, setCode] = useState('');
  const [revealed, setRevealed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [resent, setResent] = useState(0);
  useEffect(() => heading.current?.focus(), []);

  const lengthError = revealed && !new RegExp(`^\\d{${codeLength}}$`).test(code);
  const codeError: ReactNode = wrongCode
    ? texts.wrongCodeMessage
    : lengthError
      ? (lengthErrorMessage ?? texts.codeErrorMessage)
      : null;
  const errors = [
    ...(codeError ? [{ id: `${id}-code`, message: codeError }] : []),
    ...(problem ? [{ message: <RichText html={problem} /> }] : []),
  ];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAttempt((n) => n + 1);
    if (!new RegExp(`^\\d{${codeLength}}$`).test(code)) {
      setRevealed(true);
      return;
    }
    setRevealed(false);
    onSubmit(code);
  };

  return (
    <div className="contact-change__step">
      <Heading ref={heading} tabIndex={-1}>
        {texts.heading}
      </Heading>
      <ErrorSummary
        errors={errors}
        title={settings.commonTexts['errorSummaryHeading']}
        focusKey={`${attempt}-${wrongCode}-${problem}`}
      />
      <RichText html={fillPlaceholders(texts.body, { destination: escapeHtml(destination) })} />
      <div aria-live="polite">
        {resent > 0 && (
          <RichText key={resent} html={texts.resendSuccessMessage} className="message message--success" />
        )}
      </div>
      <form noValidate onSubmit={submit}>
        <CodeInput
          id={`${id}-code`}
          length={codeLength}
          value={boxes}
          onChange={(next, state) => {
            setBoxes(next);
            setCode(state.code);
          }}
          legend={texts.codeLabel}
          hint={hint ?? texts.codeHint}
          error={codeError}
        />
        <ResendButton
          onResend={() =>
            void onResend().then((ok) => {
              if (!ok) return;
              setBoxes([]);
              setCode('');
              setResent((n) => n + 1);
            })
          }
          countdownText={texts.resendWaitText}
          availableText={texts.resendAvailableText}
          disabled={busy}
        >
          {texts.resendText}
        </ResendButton>
        <div className="cta-list">
          <Button
            type="submit"
            variant={submitVariant}
            submitting={busy}
            submittingText={settings.commonTexts['loading']}
          >
            {texts.submitText}
          </Button>
          <Button variant="secondary" onClick={onBack}>
            {texts.backText}
          </Button>
        </div>
      </form>
    </div>
  );
}
