import type { NoticePreferences } from '@portal/contracts/account';
import type { BlockOf } from '@portal/contracts/content';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Fieldset } from '../../../components/ui/fieldset';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { pushToDataLayer } from '../../../lib/analytics/data-layer';
import { useCurrentUser } from '../../../session/tokens';
import { useUserPreferences } from '../api/use-user-preferences';
import { updatePreferences } from '../api/update-preferences';

type Choice = Pick<NoticePreferences, 'email' | 'text'>;

/** What a save sends: the choices that differ from those saved; null when none does. */
export function changedNotices(saved: NoticePreferences, chosen: Choice): Partial<Choice> | null {
  const changed: Partial<Choice> = {};
  // While paperless the email is not the customer's to change: never sent.
  if (!saved.emailRequired && chosen.email !== saved.email) changed.email = chosen.email;
  if (saved.textTo !== null && chosen.text !== saved.text) changed.text = chosen.text;
  return Object.keys(changed).length > 0 ? changed : null;
}

/**
 * "Tell me when a new document is ready" (issue 40 point 4), beside paperless: by email (always while
 * paperless, said rather than offered) and by text message to the mobile on record (offered only when
 * there is one). Save is available when the choice differs from what was saved; a failed save says so
 * and keeps the choice made.
 */
function NoticePreferencesBlock({ block }: { block: BlockOf<'noticePreferences'> }) {
  const settings = useSiteSettings();
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const { preferences, keepSaved } = useUserPreferences(customerId);
  // The customer's choice while it differs from what was saved (null: as saved).
  const [chosen, setChosen] = useState<Choice | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<'hidden' | 'success' | 'error'>('hidden');
  const headingId = `${block.id}-heading`;

  if (preferences.isPending) return <p className="block-loading">{block.loadingText}</p>;
  if (preferences.isError || !customerId) {
    return (
      <div role="alert">
        <RichText html={block.loadErrorMessage} className="inset-text" />
      </div>
    );
  }
  const saved = preferences.data.noticePreferences;
  const choice: Choice = chosen ?? { email: saved.email, text: saved.text };
  const changed = changedNotices(saved, choice);

  const choose = (next: Choice) => {
    setChosen(next);
    setMessage('hidden');
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!changed || saving) return;
    setSaving(true);
    try {
      const result = await updatePreferences(customerId, { noticePreferences: changed });
      keepSaved(result);
      setChosen(null);
      setMessage('success');
      pushToDataLayer({ event: 'preferenceUpdated', preference: 'notices' });
    } catch {
      // The choice stays as made, to try again.
      setMessage('error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="content-block" aria-labelledby={block.heading ? headingId : undefined}>
      {block.heading && <h2 id={headingId}>{block.heading}</h2>}
      {block.body && <RichText html={block.body} />}
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
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-label={block.heading ?? block.saveText}
      >
        <Fieldset id={`${block.id}-channels`} legend={block.legend}>
          {saved.emailRequired ? (
            <RichText html={block.emailRequiredText} />
          ) : (
            <Checkbox
              id={`${block.id}-email`}
              label={block.emailLabel}
              checked={choice.email}
              onChange={(checked) => choose({ ...choice, email: checked })}
            />
          )}
          {saved.textTo !== null ? (
            <Checkbox
              id={`${block.id}-text`}
              label={block.textLabel.replace('{mobile}', saved.textTo)}
              hint={block.textHint}
              checked={choice.text}
              onChange={(checked) => choose({ ...choice, text: checked })}
            />
          ) : (
            <RichText html={block.noMobileText} />
          )}
        </Fieldset>
        <Button
          type="submit"
          disabled={!changed}
          submitting={saving}
          submittingText={settings.commonTexts['loading']}
        >
          {block.saveText}
        </Button>
      </form>
    </section>
  );
}

export default NoticePreferencesBlock;
