import { getUserPreferencesCall, updatePreferencesCall } from '@portal/contracts/account';
import type { BlockOf } from '@portal/contracts/content';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import MarketingPreferencesBlock, { changedPreferences, channelsOffered } from './marketing-preferences';

const block = {
  id: 'preferences-marketing',
  type: 'marketingPreferences',
  heading: 'Offers and news',
  channelsHeading: 'How may we contact you?',
  channels: [
    { id: '111', channel: 'email', label: 'Email' },
    { id: '222', channel: 'phone', label: 'Phone' },
    { id: '333', channel: 'post', label: 'Post' },
  ],
  online: {
    question: 'Can we show you tailored offers?',
    yesOption: { id: '7654987', label: 'Yes', value: 'yes' },
    noOption: { id: '7654988', label: 'No', value: 'no' },
  },
  saveText: 'Save marketing preferences',
  successMessage: '<p>Your marketing preferences have been saved.</p>',
  errorSavingChangesMessage: '<p>Sorry, we could not save your changes.</p>',
  loadErrorMessage: '<p>Sorry, we cannot show your marketing preferences.</p>',
  loadingText: 'Loading your preferences…',
} as BlockOf<'marketingPreferences'>;

const stored = (online: boolean | null, email: boolean | null = null) => ({
  email: 'helen.dawson@example.co.uk',
  marketingPreferences: { email, phone: null, post: null, online },
  correspondencePreferences: { paperless: true, addressLines: [] },
  noticePreferences: { email: true, emailRequired: true, text: false, textTo: null },
  registrationJourney: false,
});

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <MarketingPreferencesBlock block={block} />
    </QueryClientProvider>,
  );

describe('marketing preference rules (spec §4)', () => {
  it('offers the channels only while none is set, and sends only what changed', () => {
    expect(channelsOffered({ email: null, phone: null, post: null, online: true })).toBe(true);
    expect(channelsOffered({ email: false, phone: null, post: null, online: true })).toBe(false);
    const saved = { email: null, phone: null, post: null, online: true };
    expect(changedPreferences(saved, saved)).toBeNull();
    expect(changedPreferences(saved, { ...saved, online: false, email: true })).toEqual({
      online: false,
      email: true,
    });
    // Ticked and unticked again: the unticked box is what was saved (never set), so nothing changed.
    expect(changedPreferences(saved, { ...saved, email: false })).toBeNull();
    expect(changedPreferences({ ...saved, email: false }, { ...saved, email: true })).toEqual({
      email: true,
    });
  });
});

describe('marketing preferences block', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    window.dataLayer = [];
  });
  afterEach(() => signOut());

  it('uses the ids of spec §9: channels 111, 222, 333; yes 7654987, no 7654988', async () => {
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(null) })));
    render();
    expect(await screen.findByRole('checkbox', { name: 'Email' })).toHaveAttribute('id', '111');
    expect(screen.getByRole('checkbox', { name: 'Phone' })).toHaveAttribute('id', '222');
    expect(screen.getByRole('checkbox', { name: 'Post' })).toHaveAttribute('id', '333');
    expect(screen.getByRole('radio', { name: 'Yes' })).toHaveAttribute('id', '7654987');
    expect(screen.getByRole('radio', { name: 'No' })).toHaveAttribute('id', '7654988');
  });

  it('offers the channels only while none is set', async () => {
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(true, false) })));
    render();
    expect(await screen.findByRole('radio', { name: 'Yes' })).toBeChecked();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('saves only a change, says so, and keeps the new choice', async () => {
    const sent: unknown[] = [];
    fakeApi.use(
      fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(true) })),
      fakeCall(updatePreferencesCall, ({ body }) => {
        sent.push(body);
        return {
          status: 200,
          body: {
            marketingPreferences: { email: null, phone: null, post: null, online: false },
            correspondencePreferences: { paperless: true, addressLines: [] },
            noticePreferences: { email: true, emailRequired: true, text: false, textTo: null },
          },
        };
      }),
    );
    render();
    const save = await screen.findByRole('button', { name: 'Save marketing preferences' });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('radio', { name: 'Yes' })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'No' }));
    expect(save).not.toHaveAttribute('aria-disabled');
    await userEvent.click(save);
    expect(await screen.findByText('Your marketing preferences have been saved.')).toBeInTheDocument();
    expect(sent).toEqual([{ marketingPreferences: { online: false } }]);
    expect(screen.getByRole('radio', { name: 'No' })).toBeChecked();
    expect(save).toHaveAttribute('aria-disabled', 'true');
    // Spec §4: a successful save emits a preference-updated event (the analytics data layer).
    expect(window.dataLayer).toEqual([{ event: 'preferenceUpdated', preference: 'marketing' }]);
  });

  it('ticking Email and unticking it again leaves nothing to save (spec §4)', async () => {
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(true) })));
    render();
    const email = await screen.findByRole('checkbox', { name: 'Email' });
    const save = screen.getByRole('button', { name: 'Save marketing preferences' });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(email);
    expect(save).not.toHaveAttribute('aria-disabled');
    await userEvent.click(email);
    expect(email).not.toBeChecked();
    expect(save).toHaveAttribute('aria-disabled', 'true');
  });

  it('after a save the saved choice is the one to differ from', async () => {
    const sent: unknown[] = [];
    fakeApi.use(
      fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(true) })),
      fakeCall(updatePreferencesCall, ({ body }) => {
        sent.push(body);
        return {
          status: 200,
          body: {
            marketingPreferences: { email: null, phone: null, post: null, online: false },
            correspondencePreferences: { paperless: true, addressLines: [] },
            noticePreferences: { email: true, emailRequired: true, text: false, textTo: null },
          },
        };
      }),
    );
    render();
    const save = await screen.findByRole('button', { name: 'Save marketing preferences' });
    await userEvent.click(screen.getByRole('radio', { name: 'No' }));
    await userEvent.click(save);
    expect(await screen.findByText('Your marketing preferences have been saved.')).toBeInTheDocument();
    expect(save).toHaveAttribute('aria-disabled', 'true');
    // Yes now differs from what was saved (No), and No again does not.
    await userEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(save).not.toHaveAttribute('aria-disabled');
    await userEvent.click(screen.getByRole('radio', { name: 'No' }));
    expect(save).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Email' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Email' }));
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(sent).toEqual([{ marketingPreferences: { online: false } }]);
  });

  it('on a failed save says so and goes back to what was saved', async () => {
    fakeApi.use(
      fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(true) })),
      fakeCall(updatePreferencesCall, () => ({ status: 502 })),
    );
    render();
    await userEvent.click(await screen.findByRole('radio', { name: 'No' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save marketing preferences' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, we could not save your changes.');
    expect(screen.getByRole('radio', { name: 'Yes' })).toBeChecked();
    expect(window.dataLayer).toEqual([]);
  });
});
