import {
  getUserPreferencesCall,
  updatePreferencesCall,
  type UpdatePreferencesBody,
} from '@portal/contracts/account';
import type { BlockOf } from '@portal/contracts/content';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import CorrespondencePreferencesBlock from './correspondence-preferences';

// The block as content has it (content/pages/profile-preferences.json).
const block = {
  id: 'preferences-correspondence',
  type: 'correspondencePreferences',
  heading: 'How we send your documents',
  paperlessLabel: 'Send my documents online (paperless)',
  paperLabel: 'Send my documents by post',
  currentlyPaperlessText: '<p>You currently get your documents <strong>online</strong>.</p>',
  currentlyPaperText: '<p>You currently get your documents <strong>by post</strong> to:</p>',
  addressLabel: 'Postal address',
  checkboxRequiredMessage: 'Tick the box to confirm the change',
  saveText: 'Save document preference',
  successMessage: '<p>Your document preference has been saved.</p>',
  errorMessage: '<p>Sorry, we could not save your changes. Please try again.</p>',
  loadErrorMessage: '<p>Sorry, we cannot show how we send your documents at the moment.</p>',
  loadingText: 'Loading your preferences…',
} as BlockOf<'correspondencePreferences'>;

const address = ['1 Hill Road', 'Shrewsbury', 'SY5 8AB'];
const marketing = { email: null, phone: null, post: null, online: true };
const stored = (paperless: boolean) => ({
  email: 'helen.dawson@example.co.uk',
  marketingPreferences: marketing,
  correspondencePreferences: { paperless, addressLines: address },
  noticePreferences: { email: paperless, emailRequired: paperless, text: false, textTo: null },
  registrationJourney: false,
});

/** The stored preferences and the PATCH, answering with the change made (or 502 when `fails`). */
function fakeAccount(paperless: boolean, { fails = false } = {}) {
  const sent: UpdatePreferencesBody[] = [];
  fakeApi.use(
    fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored(paperless) })),
    fakeCall(updatePreferencesCall, ({ body }) => {
      sent.push(body);
      if (fails) return { status: 502 };
      return {
        status: 200,
        body: {
          marketingPreferences: marketing,
          correspondencePreferences: {
            paperless: body.correspondencePreferences?.paperless ?? paperless,
            addressLines: address,
          },
          noticePreferences: stored(body.correspondencePreferences?.paperless ?? paperless).noticePreferences,
        },
      };
    }),
  );
  return sent;
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <CorrespondencePreferencesBlock block={block} />
    </QueryClientProvider>,
  );

const save = () => screen.getByRole('button', { name: 'Save document preference' });

describe('correspondence preferences (spec customer-data §4, §5)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    window.dataLayer = [];
  });
  afterEach(() => signOut());

  it('refuses to save until the box is ticked, saying so beside it, and sends nothing', async () => {
    const user = userEvent.setup();
    const sent = fakeAccount(true);
    render();
    expect(await screen.findByText('Loading your preferences…')).toBeInTheDocument();
    const box = await screen.findByRole('checkbox', { name: 'Send my documents by post' });
    expect(box).not.toBeChecked();
    expect(save()).toHaveAttribute('aria-disabled', 'true');

    await user.click(save());
    expect(box).toHaveAccessibleDescription(/Tick the box to confirm the change/);
    expect(box).toBeInvalid();
    expect(sent).toEqual([]);

    await user.click(box);
    expect(box).not.toHaveAccessibleDescription();
    expect(save()).not.toHaveAttribute('aria-disabled');
  });

  it('ticking while paperless sends paperless false, says it is saved and shows the postal address', async () => {
    const user = userEvent.setup();
    const sent = fakeAccount(true);
    render();
    expect(await screen.findByText(/You currently get your documents/)).toHaveTextContent(
      'You currently get your documents online.',
    );
    expect(screen.queryByText('Postal address')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Send my documents by post' }));
    await user.click(save());

    expect(await screen.findByText('Your document preference has been saved.')).toBeInTheDocument();
    expect(sent).toEqual([{ correspondencePreferences: { paperless: false } }]);
    expect(screen.getByText(/You currently get your documents/)).toHaveTextContent(
      'You currently get your documents by post to:',
    );
    expect(screen.getByRole('definition')).toHaveTextContent('1 Hill Road, Shrewsbury, SY5 8AB');
    const back = screen.getByRole('checkbox', { name: 'Send my documents online (paperless)' });
    expect(back).not.toBeChecked();
    expect(save()).toHaveAttribute('aria-disabled', 'true');
    expect(window.dataLayer).toContainEqual({ event: 'preferenceUpdated', preference: 'correspondence' });
  });

  it('ticking while on paper sends paperless true', async () => {
    const user = userEvent.setup();
    const sent = fakeAccount(false);
    render();
    expect(await screen.findByRole('definition')).toHaveTextContent('1 Hill Road, Shrewsbury, SY5 8AB');
    await user.click(screen.getByRole('checkbox', { name: 'Send my documents online (paperless)' }));
    await user.click(save());
    expect(await screen.findByText('Your document preference has been saved.')).toBeInTheDocument();
    expect(sent).toEqual([{ correspondencePreferences: { paperless: true } }]);
    expect(screen.queryByRole('definition')).not.toBeInTheDocument();
  });

  it('says so when the change cannot be saved, and keeps what was saved', async () => {
    const user = userEvent.setup();
    fakeAccount(true, { fails: true });
    render();
    await user.click(await screen.findByRole('checkbox', { name: 'Send my documents by post' }));
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we could not save your changes. Please try again.',
    );
    expect(screen.queryByText('Your document preference has been saved.')).not.toBeInTheDocument();
    expect(screen.getByText(/You currently get your documents/)).toHaveTextContent(
      'You currently get your documents online.',
    );
    expect(window.dataLayer).toEqual([]);
  });

  it('says so when the preferences cannot be read', async () => {
    fakeApi.use(fakeCall(getUserPreferencesCall, () => ({ status: 502 })));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we cannot show how we send your documents at the moment.',
    );
  });
});
