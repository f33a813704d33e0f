import {
  getUserPreferencesCall,
  updatePreferencesCall,
  type NoticePreferences,
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
import NoticePreferencesBlock, { changedNotices } from './notice-preferences';

// The block as content has it (content/pages/profile-preferences.json).
const block = {
  id: 'preferences-notices',
  type: 'noticePreferences',
  heading: 'Tell me when a new document is ready',
  legend: 'How should we tell you?',
  emailLabel: 'By email',
  emailRequiredText: '<p>You get your documents online, so we always email you when a new one is ready.</p>',
  textLabel: 'By text message to {mobile}',
  textHint: 'We do not send these texts between 9pm and 8am. A text due then is sent at 8am.',
  noMobileText:
    '<p>To get text messages, <a href="/profile/contact-details">add a mobile number to your contact details</a>.</p>',
  saveText: 'Save how we tell you',
  successMessage: '<p>How we tell you about new documents has been saved.</p>',
  errorMessage: '<p>Sorry, we could not save your changes. Please try again.</p>',
  loadErrorMessage: '<p>Sorry, we cannot show how we tell you about new documents at the moment.</p>',
  loadingText: 'Loading your preferences…',
} as BlockOf<'noticePreferences'>;

const paperlessWithMobile: NoticePreferences = {
  email: true,
  emailRequired: true,
  text: false,
  textTo: '+44 XXXX XXX123',
};
const paperWithoutMobile: NoticePreferences = {
  email: false,
  emailRequired: false,
  text: false,
  textTo: null,
};

/** The stored preferences and the PATCH, answering with the change made (or 502 when `fails`). */
function fakeAccount(notices: NoticePreferences, { fails = false } = {}) {
  const sent: UpdatePreferencesBody[] = [];
  const marketingPreferences = { email: null, phone: null, post: null, online: true };
  const correspondencePreferences = { paperless: notices.emailRequired, addressLines: ['1 Hill Road'] };
  fakeApi.use(
    fakeCall(getUserPreferencesCall, () => ({
      status: 200,
      body: {
        email: 'helen.dawson@example.co.uk',
        marketingPreferences,
        correspondencePreferences,
        noticePreferences: notices,
        registrationJourney: false,
      },
    })),
    fakeCall(updatePreferencesCall, ({ body }) => {
      sent.push(body);
      if (fails) return { status: 502 };
      return {
        status: 200,
        body: {
          marketingPreferences,
          correspondencePreferences,
          noticePreferences: { ...notices, ...body.noticePreferences },
        },
      };
    }),
  );
  return sent;
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <NoticePreferencesBlock block={block} />
    </QueryClientProvider>,
  );

const save = () => screen.getByRole('button', { name: 'Save how we tell you' });

describe('what a notice choice sends', () => {
  it('sends only what changed, never the email while paperless nor texts without a mobile', () => {
    expect(changedNotices(paperlessWithMobile, { email: true, text: false })).toBeNull();
    expect(changedNotices(paperlessWithMobile, { email: false, text: true })).toEqual({ text: true });
    expect(changedNotices(paperWithoutMobile, { email: true, text: true })).toEqual({ email: true });
  });
});

describe('"Tell me when a new document is ready" (issue 40 point 4)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    window.dataLayer = [];
  });
  afterEach(() => signOut());

  it('while paperless says email is always on, offers texts to the mobile on record and saves them', async () => {
    const user = userEvent.setup();
    const sent = fakeAccount(paperlessWithMobile);
    render();
    expect(
      await screen.findByText(
        'You get your documents online, so we always email you when a new one is ready.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'By email' })).not.toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'How should we tell you?' });
    expect(group).toBeInTheDocument();
    const text = screen.getByRole('checkbox', { name: 'By text message to +44 XXXX XXX123' });
    expect(text).toHaveAccessibleDescription(/between 9pm and 8am/);
    expect(save()).toHaveAttribute('aria-disabled', 'true');

    await user.click(text);
    await user.click(save());
    expect(
      await screen.findByText('How we tell you about new documents has been saved.'),
    ).toBeInTheDocument();
    expect(sent).toEqual([{ noticePreferences: { text: true } }]);
    expect(text).toBeChecked();
    expect(save()).toHaveAttribute('aria-disabled', 'true');
    expect(window.dataLayer).toContainEqual({ event: 'preferenceUpdated', preference: 'notices' });
  });

  it('on paper offers email, and with no mobile says how to add one instead of offering texts', async () => {
    const user = userEvent.setup();
    const sent = fakeAccount(paperWithoutMobile);
    render();
    const email = await screen.findByRole('checkbox', { name: 'By email' });
    expect(email).not.toBeChecked();
    expect(screen.queryByRole('checkbox', { name: /By text message/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'add a mobile number to your contact details' })).toHaveAttribute(
      'href',
      '/profile/contact-details',
    );
    await user.click(email);
    await user.click(save());
    expect(
      await screen.findByText('How we tell you about new documents has been saved.'),
    ).toBeInTheDocument();
    expect(sent).toEqual([{ noticePreferences: { email: true } }]);
  });

  it('says so when the change cannot be saved, and keeps the choice made to try again', async () => {
    const user = userEvent.setup();
    const sent = fakeAccount(paperlessWithMobile, { fails: true });
    render();
    const text = await screen.findByRole('checkbox', { name: 'By text message to +44 XXXX XXX123' });
    await user.click(text);
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, we could not save your changes.');
    expect(text).toBeChecked();
    expect(save()).not.toHaveAttribute('aria-disabled');
    expect(sent).toHaveLength(1);
  });
});
