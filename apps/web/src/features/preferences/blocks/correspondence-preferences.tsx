import type { BlockOf } from '@portal/contracts/content';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { pushToDataLayer } from '../../../lib/analytics/data-layer';
import { useCurrentUser } from '../../../session/tokens';
import { useUserPreferences } from '../api/use-user-preferences';
import { updatePreferences } from '../api/update-preferences';

/**
 * How documents are sent (spec customer-data §2, §4): paper or paperless, with the postal address shown
 * for paper. The one checkbox switches to the other; it must be ticked before the change can be saved
 * (ticking while paperless yields paper). Success or error text follows.
 */
function CorrespondencePreferencesBlock({ block }: { block: BlockOf<'correspondencePreferences'> }) {
  const settings = useSiteSettings();
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const { preferences, keepSaved } = useUserPreferences(customerId);
  const [ticked, setTicked] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<'hidden' | 'success' | 'error'>('hidden');
  const headingId = `${block.id}-heading`;
  const checkboxId = `${block.id}-switch`;
  const errorId = `${block.id}-error`;

  if (preferences.isPending) return <p className="block-loading">{block.loadingText}</p>;
  if (preferences.isError || !customerId) {
    return (
      <div role="alert">
        <RichText html={block.loadErrorMessage} className="inset-text" />
      </div>
    );
  }
  const { paperless, addressLines } = preferences.data.correspondencePreferences;
  const showError = revealed && !ticked;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ticked) {
      setRevealed(true);
      return;
    }
    if (saving) return;
    setSaving(true);
    try {
      const result = await updatePreferences(customerId, {
        correspondencePreferences: { paperless: !paperless },
      });
      keepSaved(result);
      setTicked(false);
      setRevealed(false);
      setMessage('success');
      pushToDataLayer({ event: 'preferenceUpdated', preference: 'correspondence' });
    } catch {
      setMessage('error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="content-block" aria-labelledby={block.heading ? headingId : undefined}>
      {block.heading && <h2 id={headingId}>{block.heading}</h2>}
      <RichText html={block.body} />
      <div aria-live="polite" aria-atomic="true">
        {message === 'success' && (
          <RichText html={block.successMessage} className="message message--success" />
        )}
        {message === 'error' && (
          <div role="alert">
            <RichText html={block.errorMessage} className="message message--error" />
          </div>
        )}
      </div>
      <RichText html={paperless ? block.currentlyPaperlessText : block.currentlyPaperText} />
      {!paperless && addressLines.length > 0 && (
        <dl className="summary-list">
          <div>
            <dt>{block.addressLabel}</dt>
            <dd>{addressLines.join(', ')}</dd>
          </div>
        </dl>
      )}
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-label={block.heading ?? block.saveText}
      >
        <div className={showError ? 'ui-form-group ui-form-group--error' : 'ui-form-group'}>
          {showError && (
            <p className="ui-error-message" id={errorId}>
              <span className="visually-hidden">Error: </span>
              {block.checkboxRequiredMessage}
            </p>
          )}
          <div className="ui-choice">
            <input
              className="ui-choice__input"
              type="checkbox"
              id={checkboxId}
              checked={ticked}
              aria-describedby={showError ? errorId : undefined}
              aria-invalid={showError || undefined}
              onChange={(event) => {
                setTicked(event.target.checked);
                setMessage('hidden');
              }}
            />
            <label className="ui-choice__label" htmlFor={checkboxId}>
              {paperless ? block.paperLabel : block.paperlessLabel}
            </label>
          </div>
        </div>
        <Button
          type="submit"
          disabled={!ticked}
          submitting={saving}
          submittingText={settings.commonTexts['loading']}
          onDisabledClick={() => setRevealed(true)}
        >
          {block.saveText}
        </Button>
      </form>
    </section>
  );
}

export default CorrespondencePreferencesBlock;
