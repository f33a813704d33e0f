import type { MarketingPreferences } from '@portal/contracts/account';
import type { BlockOf } from '@portal/contracts/content';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Fieldset } from '../../../components/ui/fieldset';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { pushToDataLayer } from '../../../lib/analytics/data-layer';
import { auditEventIds } from '../../../session/audit/audit-event-ids';
import { correspondencePreferenceOf, marketingChannelsOf } from '../../../session/audit/audit-fields';
import { auditFailureReasonOf, logAuditEvent } from '../../../session/audit/log-audit-event';
import { useCurrentUser } from '../../../session/tokens';
import { useUserPreferences } from '../api/use-user-preferences';
import { updatePreferences } from '../api/update-preferences';

type Choice = Pick<MarketingPreferences, 'email' | 'phone' | 'post' | 'online'>;
const channelKeys = ['email', 'phone', 'post'] as const;

/** Spec §4: the email, phone and post channels are offered only when none of them is set yet. */
export function channelsOffered(saved: Choice): boolean {
  return saved.email === null && saved.phone === null && saved.post === null;
}

/**
 * What a save sends: only the preferences whose choice differs from the last saved; null when none does.
 * A channel never set (null) shows as an unticked box, so unticking a box ticked a moment ago is no
 * change: the choice is back to what was saved.
 */
export function changedPreferences(
  saved: Choice,
  chosen: Choice,
): Partial<Record<keyof Choice, boolean>> | null {
  const changed: Partial<Record<keyof Choice, boolean>> = {};
  for (const key of channelKeys) {
    const ticked = chosen[key] === true;
    if (ticked !== (saved[key] === true)) changed[key] = ticked;
  }
  if (chosen.online !== null && chosen.online !== saved.online) changed.online = chosen.online;
  return Object.keys(changed).length > 0 ? changed : null;
}

/**
 * Marketing preferences on the profile (spec customer-data §2, §4): email, phone and post (offered only
 * when none is set) and the tailored online yes or no. Save is available only when the choice differs
 * from what was last saved; success or error follows; on error the choice goes back to what was saved;
 * a successful save emits a preference-updated event and is audited.
 */
function MarketingPreferencesBlock({ block }: { block: BlockOf<'marketingPreferences'> }) {
  const settings = useSiteSettings();
  const user = useCurrentUser();
  const customerId = user?.customerId;
  const { preferences, keepSaved } = useUserPreferences(customerId);
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
  const saved: Choice = preferences.data.marketingPreferences;
  const current = chosen ?? saved;
  const offerChannels = channelsOffered(saved);
  const changes = changedPreferences(saved, current);
  const choose = (next: Partial<Choice>) => {
    setChosen({ ...current, ...next });
    setMessage('hidden');
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!changes || saving) return;
    setSaving(true);
    const base = {
      eventId: auditEventIds.marketingPreferences,
      customerId,
      onBehalfOf: user?.onBehalfOf ?? null,
    };
    try {
      const result = await updatePreferences(customerId, { marketingPreferences: changes });
      keepSaved(result);
      setChosen(null);
      setMessage('success');
      pushToDataLayer({ event: 'preferenceUpdated', preference: 'marketing' });
      void logAuditEvent({
        ...base,
        isSuccess: true,
        marketingChannels: marketingChannelsOf(result.marketingPreferences),
        marketingConsent: result.marketingPreferences.online,
        correspondencePreference: correspondencePreferenceOf(result.correspondencePreferences.paperless),
        authenticationStatus: 'Authenticated',
      });
    } catch (error) {
      // Spec §4: on error the selection reverts to the last saved.
      setChosen(null);
      setMessage('error');
      void logAuditEvent({
        ...base,
        isSuccess: false,
        failureReason: auditFailureReasonOf(error, { authorisedCall: true }),
        marketingConsent: current.online,
        authenticationStatus: 'Authenticated',
      });
    } finally {
      setSaving(false);
    }
  };

  const yes = block.online.yesOption;
  const no = block.online.noOption;
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
            <RichText html={block.errorSavingChangesMessage} className="message message--error" />
          </div>
        )}
      </div>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-label={block.heading ?? block.saveText}
      >
        {offerChannels && (
          <Fieldset id={`${block.id}-channels`} legend={block.channelsHeading}>
            <div className="ui-choices">
              {block.channels.map((c) => (
                <div className="ui-choice" key={c.id}>
                  <input
                    className="ui-choice__input"
                    type="checkbox"
                    id={c.id}
                    name="marketingChannels"
                    value={c.channel}
                    checked={current[c.channel] === true}
                    onChange={(event) => choose({ [c.channel]: event.target.checked })}
                  />
                  <label className="ui-choice__label" htmlFor={c.id}>
                    {c.label}
                  </label>
                </div>
              ))}
            </div>
          </Fieldset>
        )}
        <Fieldset
          id={`${block.id}-online`}
          legend={block.online.question}
          hint={block.online.hint ? <RichText html={block.online.hint} /> : undefined}
        >
          <div className="ui-choices">
            {[
              { option: yes, value: true },
              { option: no, value: false },
            ].map(({ option, value }) => (
              <div className="ui-choice ui-choice--radio" key={option.id}>
                <input
                  className="ui-choice__input"
                  type="radio"
                  id={option.id}
                  name={`${block.id}-online`}
                  value={option.value}
                  checked={current.online === value}
                  onChange={() => choose({ online: value })}
                />
                <label className="ui-choice__label" htmlFor={option.id}>
                  {option.label}
                </label>
              </div>
            ))}
          </div>
        </Fieldset>
        <Button
          type="submit"
          disabled={changes === null}
          submitting={saving}
          submittingText={settings.commonTexts['loading']}
        >
          {block.saveText}
        </Button>
      </form>
    </section>
  );
}

export default MarketingPreferencesBlock;
