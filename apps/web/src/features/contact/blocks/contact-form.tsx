import { CONTACT_MESSAGE_MAX_LENGTH } from '@portal/contracts/contact';
import type { BlockOf } from '@portal/contracts/content';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { RadioGroup } from '../../../components/ui/radio-group';
import { CallToActionList } from '../../../content/call-to-action';
import { fillPlaceholders } from '../../../content/placeholders';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { useKeepDraftOnSignOut, useKeptDraft, type DraftValues } from '../../../session/drafts';
import { useCurrentUser } from '../../../session/tokens';
import { sendContactMessage } from '../api/send-contact-message';

type Block = BlockOf<'contactForm'>;

/** Spec §4, §5: `?primary=` preselects the primary answer when it is a valid index; otherwise it is ignored. */
export function primaryFromUrl(value: string | null, answers: number): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const index = Number(value);
  return index < answers ? index : null;
}

/** Characters left, counted as the server counts them (UTF-16 code units, as the textarea's maxlength). */
export function remainingCharacters(text: string, max: number): number {
  return Math.max(0, max - text.length);
}

/** A kept draft's answers, where they are still among the form's. */
function keptAnswers(
  kept: DraftValues | null,
  answers: BlockOf<'contactForm'>['primaryQuestion']['answers'],
) {
  if (!kept) return null;
  const primary = primaryFromUrl(
    typeof kept['primary'] === 'string' ? kept['primary'] : null,
    answers.length,
  );
  const secondary =
    primary === null ? undefined : answers[primary]?.secondaryAnswers.find((a) => a.id === kept['secondary']);
  return {
    primary,
    secondaryId: secondary?.id ?? null,
    text: typeof kept['text'] === 'string' ? kept['text'] : '',
  };
}

/**
 * Contact us (spec customer-data §2, §4, §5): the primary question, then the secondary, then the message
 * with a remaining-characters counter, unless content has an override for that pair, which replaces the
 * text box with its own call to action. Sending leads to the success page; a failure shows errorHtml and
 * keeps what the customer typed.
 */
function ContactFormBlock({ block }: { block: Block }) {
  const settings = useSiteSettings();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const answers = block.primaryQuestion.answers;
  // Kept in this browser if the inactivity timer signs the customer out while they write (issue 40), and
  // given back here when they sign in again.
  const draftName = `contact-us:${block.id}`;
  const draft = useKeptDraft(draftName, user?.customerId);
  const kept = keptAnswers(draft.kept, answers);
  const [primary, setPrimary] = useState<number | null>(() =>
    kept ? kept.primary : primaryFromUrl(params.get('primary'), answers.length),
  );
  const [secondaryId, setSecondaryId] = useState<string | null>(kept?.secondaryId ?? null);
  const [text, setText] = useState(kept?.text ?? '');
  const [revealed, setRevealed] = useState(0);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(0);
  useKeepDraftOnSignOut(draftName, user?.customerId, () =>
    text.trim() === ''
      ? null
      : { primary: primary === null ? '' : String(primary), secondary: secondaryId ?? '', text },
  );

  const discardDraft = () => {
    draft.discard();
    setPrimary(null);
    setSecondaryId(null);
    setText('');
  };

  const primaryAnswer = primary === null ? undefined : answers[primary];
  const secondary = primaryAnswer?.secondaryAnswers.find((a) => a.id === secondaryId);
  const max = Math.min(block.message.maxLength ?? CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGE_MAX_LENGTH);
  const fieldId = `${block.id}-message`;
  const trimmed = text.trim();
  const messageError =
    revealed > 0 && trimmed === ''
      ? (block.message.requiredMessage ?? block.message.errorMessage)
      : text.length > max
        ? block.message.errorMessage
        : null;
  const primaryError = revealed > 0 && !primaryAnswer ? block.primaryRequiredMessage : null;
  const secondaryError = revealed > 0 && primaryAnswer && !secondary ? block.secondaryRequiredMessage : null;
  const errors = [
    primaryError && { id: `${block.id}-primary`, message: primaryError },
    secondaryError && { id: `${block.id}-secondary`, message: secondaryError },
    messageError && { id: fieldId, message: messageError },
  ].filter((e): e is { id: string; message: string } => !!e);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending || !user) return;
    if (!primaryAnswer || !secondary || trimmed === '' || text.length > max) {
      setRevealed((n) => n + 1);
      return;
    }
    setSending(true);
    try {
      const result = await sendContactMessage(user.customerId, {
        productType: primaryAnswer.productType,
        messageType: secondary.messageType,
        messageText: trimmed,
      });
      if (!result.success) throw new Error('not sent');
      draft.sent();
      navigate(block.successUrl);
    } catch {
      setSending(false);
      setFailed((n) => n + 1);
    }
  };

  return (
    <section className="content-block contact-form">
      <RichText html={block.body} />
      {draft.restored && (
        <div className="inset-text" role="status">
          <p>{block.draftKeptText}</p>
          <Button type="button" variant="secondary" onClick={discardDraft}>
            {block.discardDraftText}
          </Button>
        </div>
      )}
      {failed > 0 ? (
        <div role="alert" key={failed}>
          <RichText html={block.errorHtml} className="message message--error" />
        </div>
      ) : (
        <ErrorSummary title={block.errorSummaryHeading} errors={errors} focusKey={revealed} />
      )}
      <form noValidate method="post" onSubmit={(event) => void onSubmit(event)} aria-label={block.formLabel}>
        <RadioGroup
          id={`${block.id}-primary`}
          name="primary"
          legend={block.primaryQuestion.label}
          hint={block.primaryQuestion.hint}
          error={primaryError}
          options={answers.map((a, i) => ({ value: String(i), label: a.label }))}
          value={primary === null ? null : String(primary)}
          onChange={(value) => {
            setPrimary(Number(value));
            setSecondaryId(null);
          }}
        />
        {primaryAnswer && (
          <RadioGroup
            id={`${block.id}-secondary`}
            name="secondary"
            legend={block.secondaryQuestionLabel}
            hint={block.secondaryQuestionHint}
            error={secondaryError}
            options={primaryAnswer.secondaryAnswers.map((a) => ({ value: a.id, label: a.label }))}
            value={secondaryId}
            onChange={(value) => setSecondaryId(value)}
          />
        )}
        {secondary?.override ? (
          <div className="inset-text">
            <h2>{secondary.override.heading}</h2>
            <RichText html={secondary.override.body} />
            <CallToActionList items={secondary.override.callsToAction} />
          </div>
        ) : (
          secondary && (
            <>
              <div className={messageError ? 'ui-form-group ui-form-group--error' : 'ui-form-group'}>
                <label className="ui-label" htmlFor={fieldId}>
                  {block.message.label}
                </label>
                {block.message.subLabel && (
                  <div className="ui-hint" id={`${fieldId}-hint`}>
                    {block.message.subLabel}
                  </div>
                )}
                {messageError && (
                  <p className="ui-error-message" id={`${fieldId}-error`}>
                    <span className="visually-hidden">Error: </span>
                    {messageError}
                  </p>
                )}
                <textarea
                  className="ui-textarea"
                  id={fieldId}
                  name={block.message.name}
                  rows={6}
                  maxLength={max}
                  value={text}
                  aria-invalid={messageError ? true : undefined}
                  aria-describedby={
                    [
                      block.message.subLabel && `${fieldId}-hint`,
                      messageError && `${fieldId}-error`,
                      `${fieldId}-count`,
                    ]
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  onChange={(event) => setText(event.target.value)}
                />
                <p className="ui-hint" id={`${fieldId}-count`} aria-live="polite">
                  {fillPlaceholders(block.remainingText, { count: remainingCharacters(text, max) })}
                </p>
              </div>
              <Button type="submit" submitting={sending} submittingText={settings.commonTexts['loading']}>
                {block.submitText}
              </Button>
            </>
          )
        )}
      </form>
    </section>
  );
}

export default ContactFormBlock;
