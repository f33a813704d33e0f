import type { UserPreferences } from '@portal/contracts/account';
import type { BlockOf, PageContent } from '@portal/contracts/content';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorSummary } from '../../../components/ui/error-summary';
import { Fieldset } from '../../../components/ui/fieldset';
import { Spinner } from '../../../components/ui/spinner';
import { ContentBlocks } from '../../../content/content-blocks';
import { CallToActionList } from '../../../content/call-to-action';
import { RichText } from '../../../content/rich-text';
import { useSiteSettings } from '../../../content/use-site-settings';
import { ExperimentBlocks } from '../../../lib/feature-flags/experiment-blocks';
import { auditEventIds } from '../../../session/audit/audit-event-ids';
import { correspondencePreferenceOf, marketingChannelsOf } from '../../../session/audit/audit-fields';
import { auditFailureReasonOf, logAuditEvent } from '../../../session/audit/log-audit-event';
import { takePostLoginPath } from '../../../session/post-login';
import { markLoggedIn } from '../../../session/session-store';
import { useCurrentUser } from '../../../session/tokens';
import {
  completePendingRegistration,
  endRegistrationJourney,
  isRegistrationJourney,
} from '../../../session/registration-journey';
import { fetchUserPreferences, userPreferencesKey } from '../api/get-user-preferences';
import { updatePreferences } from '../api/update-preferences';
import { firstSignInBody, type MarketingChannel } from './first-sign-in-body';
import { useAppQueryClient } from '../../../session/query-client';

type MarketingBlock = BlockOf<'marketingPreferences'>;

/**
 * Whether to offer a passkey before going on: only where this device can make one with its own lock
 * (fingerprint, face or PIN: the browser's own question, which @simplewebauthn/browser's
 * platformAuthenticatorIsAvailable asks too), then the server's answer (session/api/passkey-offer.ts,
 * loaded only then: most sign-ins load nothing for it).
 */
async function passkeyOfferDue(customerId: string): Promise<boolean> {
  const platform =
    await globalThis.PublicKeyCredential?.isUserVerifyingPlatformAuthenticatorAvailable?.().catch(
      () => false,
    );
  if (platform !== true) return false;
  // The offer never holds the sign-in up: its code failing to load means no offer.
  const offer = await import('../../../session/api/passkey-offer').catch(() => null);
  return offer ? offer.passkeyOfferDue(customerId) : false;
}

/** Used only when content has no marketingPreferences block on the page. */
const fallbackBlock: MarketingBlock = {
  id: 'marketing-preferences',
  type: 'marketingPreferences',
  channelsHeading: 'How may we contact you about offers and news? Select all that apply.',
  channels: [
    { id: '111', channel: 'email', label: 'Email' },
    { id: '222', channel: 'phone', label: 'Phone' },
    { id: '333', channel: 'post', label: 'Post' },
  ],
  online: {
    question: 'Can we show you offers tailored to you when you use your online account?',
    yesOption: { id: '7654987', label: 'Yes', value: 'yes' },
    noOption: { id: '7654988', label: 'No', value: 'no' },
  },
  saveText: 'Save and continue',
  successMessage: '<p>Thank you. We have saved your preferences.</p>',
  errorSavingChangesMessage: '<p>Sorry, we could not save your preferences. Please try again.</p>',
  loadErrorMessage: '<p>Sorry, we cannot show your preferences at the moment.</p>',
  loadingText: 'Loading your preferences…',
};

const fallbackTexts = {
  errorSummaryHeading: 'There is a problem',
  onlineChoiceRequiredMessage: 'Choose yes or no to tailored offers to continue',
  continueText: 'Continue to your account',
  loadingText: 'Loading your preferences',
};

/** A page message as plain text (legends, links and buttons take no markup). */
function text(page: PageContent, key: keyof typeof fallbackTexts): string {
  const html = page.messages[key];
  return html ? html.replace(/<[^>]*>/g, '').trim() : fallbackTexts[key];
}

/** True once the tailored online marketing question has been answered (spec: "already true or false"). */
function onlineAnswered(preferences: Pick<UserPreferences, 'marketingPreferences'>): boolean {
  return typeof preferences.marketingPreferences.online === 'boolean';
}

/** Spec: the email/phone/post channels are offered only when none of them is set. */
function channelsOffered(preferences: Pick<UserPreferences, 'marketingPreferences'> | null): boolean {
  if (!preferences) return true;
  const { email, phone, post } = preferences.marketingPreferences;
  return email === null && phone === null && post === null;
}

/**
 * The first-sign-in marketing step (spec access-and-session section 4, customer-data section 4 "Account page
 * after sign-in"). If the tailored online marketing question was answered before, the session becomes
 * loggedIn and the customer goes on to the dashboard, or to the policy, cover, documents or bills page kept
 * from before sign-in. Otherwise the question is asked: yes or no must be chosen before saving; the
 * channels are offered only when none is set. Saving sets paperless and clears any separate correspondence
 * address; during the registration journey it is audited as the on-registration variant. It also sends a
 * new registration's completion left by the password page.
 */
export function MarketingStep({ page }: { page: PageContent }) {
  const settings = useSiteSettings();
  const navigate = useNavigate();
  const queryClient = useAppQueryClient();
  const user = useCurrentUser();
  const customerId = user?.customerId ?? null;
  const block =
    page.blocks.find((b): b is MarketingBlock => b.type === 'marketingPreferences') ?? fallbackBlock;
  const otherBlocks = page.blocks.filter((b) => b.type !== 'marketingPreferences');
  // Read once: saving ends the journey, but this visit is still audited as part of it.
  const [registering] = useState(isRegistrationJourney);
  const left = useRef(false);

  const preferences = useQuery(
    {
      queryKey: userPreferencesKey(customerId ?? 'none'),
      queryFn: ({ signal }) => fetchUserPreferences(customerId!, signal),
      enabled: customerId !== null,
      retry: false,
      staleTime: 0,
    },
    queryClient,
  );

  const [online, setOnline] = useState<boolean | null>(null);
  const [channels, setChannels] = useState<ReadonlySet<MarketingChannel>>(() => new Set());
  const [revealed, setRevealed] = useState(0);
  const [saving, setSaving] = useState(false);
  const [saveFailed, setSaveFailed] = useState(0);

  /**
   * Marketing done (or answered before): on to the dashboard or the page kept from before sign-in; first,
   * for a new account on a device that can make one, the offer to set up a passkey (which goes on there).
   */
  const goOn = () => {
    if (left.current) return;
    left.current = true;
    markLoggedIn();
    const offerPage = settings.passkeyOfferPage;
    void (async () => {
      if (offerPage && customerId !== null && (await passkeyOfferDue(customerId))) {
        navigate(offerPage, { replace: true });
        return;
      }
      navigate(takePostLoginPath(settings.dashboardPage), { replace: true });
    })();
  };

  useEffect(() => {
    void completePendingRegistration();
  }, []);

  const loaded = preferences.data ?? null;
  const loadFailed = preferences.isError || (customerId === null && user === null);
  // Spec: a preference load failure during registration proceeds as submitted (the step shows again at the
  // next sign-in, as the answer is still missing).
  const proceedAnyway = loadFailed && registering;
  useEffect(() => {
    if ((loaded && onlineAnswered(loaded)) || proceedAnyway) {
      if (proceedAnyway) endRegistrationJourney();
      goOn();
    }
    // goOn reads only refs and stable values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, proceedAnyway]);

  const heading = text(page, 'errorSummaryHeading');

  if (loadFailed && !registering) {
    return (
      <>
        <div className="ui-error-summary" role="alert">
          <RichText html={block.loadErrorMessage} className="ui-error-summary__body" />
        </div>
        <Button onClick={goOn}>{text(page, 'continueText')}</Button>
      </>
    );
  }
  if (!loaded || onlineAnswered(loaded) || proceedAnyway) {
    return (
      <div role="status" className="marketing-step__loading">
        <Spinner label={text(page, 'loadingText')} />
      </div>
    );
  }

  const offerChannels = channelsOffered(loaded);
  const onlineError = revealed > 0 && online === null ? text(page, 'onlineChoiceRequiredMessage') : null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving || customerId === null) return;
    if (online === null) {
      setRevealed((n) => n + 1);
      return;
    }
    setSaving(true);
    const body = firstSignInBody({ online, channels: offerChannels ? channels : null });
    const eventId = registering
      ? auditEventIds.marketingPreferencesOnRegistration
      : auditEventIds.marketingPreferences;
    try {
      const saved = await updatePreferences(customerId, body);
      queryClient.setQueryData(userPreferencesKey(customerId), { ...loaded, ...saved });
      void logAuditEvent({
        eventId,
        isSuccess: true,
        customerId,
        onBehalfOf: user?.onBehalfOf ?? null,
        marketingChannels: marketingChannelsOf(saved.marketingPreferences),
        marketingConsent: saved.marketingPreferences.online,
        correspondencePreference: correspondencePreferenceOf(saved.correspondencePreferences.paperless),
        authenticationStatus: 'Authenticated',
      });
      endRegistrationJourney();
      goOn();
    } catch (error) {
      void logAuditEvent({
        eventId,
        isSuccess: false,
        failureReason: auditFailureReasonOf(error, { authorisedCall: true }),
        customerId,
        onBehalfOf: user?.onBehalfOf ?? null,
        marketingConsent: online,
        authenticationStatus: 'Authenticated',
      });
      setSaving(false);
      setSaveFailed((n) => n + 1);
    }
  };

  const toggleChannel = (channel: MarketingChannel, checked: boolean) => {
    setChannels((current) => {
      const next = new Set(current);
      if (checked) next.add(channel);
      else next.delete(channel);
      return next;
    });
  };

  const yes = block.online.yesOption;
  const no = block.online.noOption;
  return (
    <>
      {saveFailed > 0 ? (
        <ErrorSummary
          key={saveFailed}
          title={heading}
          errors={[{ message: <RichText html={block.errorSavingChangesMessage} /> }]}
        />
      ) : (
        <ErrorSummary
          title={heading}
          errors={onlineError ? [{ id: yes.id, message: onlineError }] : []}
          focusKey={revealed}
        />
      )}
      <ExperimentBlocks
        experiments={page.experiments}
        slot="beforeBlocks"
        renderBlocks={(b) => <ContentBlocks blocks={b} />}
      />
      <section aria-labelledby={block.heading ? `${block.id}-heading` : undefined} className="marketing-step">
        {block.heading ? <h2 id={`${block.id}-heading`}>{block.heading}</h2> : null}
        <RichText html={block.body} />
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={page.heading}>
          {offerChannels ? (
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
                      checked={channels.has(c.channel)}
                      onChange={(event) => toggleChannel(c.channel, event.target.checked)}
                    />
                    <label className="ui-choice__label" htmlFor={c.id}>
                      {c.label}
                    </label>
                  </div>
                ))}
              </div>
            </Fieldset>
          ) : null}
          <Fieldset
            id={`${block.id}-online`}
            legend={block.online.question}
            hint={block.online.hint ? <RichText html={block.online.hint} /> : undefined}
            error={onlineError}
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
                    name="onlineMarketing"
                    value={option.value}
                    checked={online === value}
                    onChange={() => setOnline(value)}
                  />
                  <label className="ui-choice__label" htmlFor={option.id}>
                    {option.label}
                  </label>
                  {option.hint ? <div className="ui-hint ui-choice__hint">{option.hint}</div> : null}
                </div>
              ))}
            </div>
          </Fieldset>
          <Button
            type="submit"
            disabled={online === null}
            submitting={saving}
            submittingText={settings.commonTexts['loading']}
            onDisabledClick={() => setRevealed((n) => n + 1)}
          >
            {block.saveText}
          </Button>
        </form>
      </section>
      <ContentBlocks blocks={otherBlocks} />
      <ExperimentBlocks
        experiments={page.experiments}
        slot="afterBlocks"
        renderBlocks={(b) => <ContentBlocks blocks={b} />}
      />
      <CallToActionList items={page.callsToAction} />
    </>
  );
}
