import {
  staffChangeEmailCall,
  staffEndSessionsCall,
  staffOpenCustomerCall,
  staffRemoveFactorsCall,
  staffResendActivationCall,
  staffUnlockCall,
} from '@portal/contracts/staff';
import { staffOpenSharedViewCall } from '@portal/contracts/staff-shared-view';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { CSRF, margaret, renderConsole, staffOf } from '../../testing/console';

const reason = { reason: 'CALL-0042' };

function openAnswers(view = margaret()) {
  fakeApi.use(fakeCall(staffOpenCustomerCall, () => ({ status: 200, body: view })));
}

async function recordHeading() {
  return screen.findByRole('heading', { level: 1, name: 'Mrs Margaret Thompson' });
}

const actions = () => screen.getByRole('region', { name: 'Help this customer' });

describe("a customer's record", () => {
  it('opens with the reason it was found with, and shows her state at a glance', async () => {
    openAnswers();
    renderConsole('/customers/C1000001', { state: reason });
    const heading = await recordHeading();
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe('Mrs Margaret Thompson – Staff console – Meridian Mutual');
    const [open] = callsTo(staffOpenCustomerCall);
    expect(open?.params).toEqual({ customerId: 'C1000001' });
    expect(open?.body).toEqual({ reason: 'CALL-0042' });
    expect(open?.headers.get('X-CSRF-Token')).toBe(CSRF);
    expect(callsTo(staffOpenCustomerCall)).toHaveLength(1);

    const identity = screen.getByRole('region', { name: 'Identity questions' });
    expect(identity).toHaveTextContent('14 April 1952');
    expect(identity).toHaveTextContent('HR8 2AB');
    expect(identity).toHaveTextContent('LandlineNone held');
    const glance = screen.getByRole('region', { name: 'At a glance' });
    expect(glance).toHaveTextContent('Online accountActive');
    expect(glance).toHaveTextContent('Locked until 7 December 2026 at 3:35pm');
    expect(glance).toHaveTextContent('6 December 2026 at 9:15am, Chrome on Windows');
    expect(glance).toHaveTextContent('Text message to +44 XXXX XXX123');
    expect(glance).toHaveTextContent('Authenticator app');
    expect(glance).toHaveTextContent('Backup codes (10)');
    expect(glance).toHaveTextContent('Safari on iPhone, signed in 6 December 2026 at 9:15am');
    expect(glance).toHaveTextContent('Paperless, by email');
    expect(glance).toHaveTextContent('Email: yes, Phone: no, Post: not asked, Online: yes');
    expect(screen.getByRole('region', { name: 'Policies' })).toHaveTextContent('102X4567891');
    // The policy system's status in words.
    expect(screen.getByRole('region', { name: 'Policies' })).toHaveTextContent(
      'Renewal ready for the customer to view',
    );
    // The activity in the customer's own words.
    const activity = screen.getByRole('region', { name: 'Account activity' });
    expect(activity).toHaveTextContent('Your account was locked after too many wrong attempts');
    expect(activity).toHaveTextContent('Locked until 7 December 2026 at 3:35pm');
    expect(activity).toHaveTextContent('Someone tried to sign in with the wrong password');
  });

  it('asks for the reason first when the page was opened without one', async () => {
    openAnswers();
    const { user } = renderConsole('/customers/C1000001');
    await screen.findByRole('heading', { level: 1, name: 'Why are you opening this record?' });
    expect(callsTo(staffOpenCustomerCall)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('link', { name: 'Enter the reason: a ticket or call reference' }),
    ).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'TICKET-99');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await recordHeading();
    expect(callsTo(staffOpenCustomerCall)[0]?.body).toEqual({ reason: 'TICKET-99' });
  });

  it('tells an auditor the record is not for their role, and opens nothing', async () => {
    openAnswers();
    renderConsole('/customers/C1000001', { who: staffOf.auditor, state: reason });
    expect(await screen.findByRole('heading', { level: 1, name: 'You cannot see this page' })).toBeVisible();
    expect(callsTo(staffOpenCustomerCall)).toHaveLength(0);
  });

  it('says why a record could not be opened (404)', async () => {
    fakeApi.use(fakeCall(staffOpenCustomerCall, () => ({ status: 404 })));
    renderConsole('/customers/C1000009', { state: reason });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The record could not be opened' }),
    ).toBeVisible();
    expect(screen.getByRole('region', { name: 'There is a problem' })).toHaveTextContent(
      'We could not find this customer.',
    );
  });

  it('sends the browser to sign in when the open finds the session ended (401), back to this record', async () => {
    fakeApi.use(fakeCall(staffOpenCustomerCall, () => ({ status: 401 })));
    const { left } = renderConsole('/customers/C1000001', { state: reason });
    await waitFor(() =>
      expect(left).toEqual([`/staff/sign-in?returnTo=${encodeURIComponent('/staff/customers/C1000001')}`]),
    );
  });
});

describe('the actions on a record, by role', () => {
  it("offers an agent what applies to her now, and none of a senior agent's", async () => {
    openAnswers();
    renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    const buttons = within(actions())
      .getAllByRole('button')
      .map((b) => b.textContent);
    // Locked, signed in somewhere, already active (no activation link to resend).
    expect(buttons).toEqual(['Unlock sign-in', 'Sign out everywhere']);
  });

  it('offers the activation link only while the account is pending, and nothing when nothing applies', async () => {
    openAnswers(
      margaret({
        registration: { state: 'pending', activationSentAt: '2026-12-01T10:02:00.000Z' },
        signIn: { locked: false, lockedUntil: null, lastSignInAt: null, lastSignInDevice: null },
        sessions: [],
      }),
    );
    renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    expect(screen.getByRole('region', { name: 'At a glance' })).toHaveTextContent(
      'Registered, activation link not used yet. Activation link last sent 1 December 2026 at 10:02am',
    );
    expect(
      within(actions())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Resend activation link']);
  });

  it('offers a senior agent the second factors she has and the email change too', async () => {
    openAnswers();
    renderConsole('/customers/C1000001', { who: staffOf.senior, state: reason });
    await recordHeading();
    expect(
      within(actions())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Unlock sign-in', 'Sign out everywhere', 'Remove second factors', 'Change email address']);
  });

  it('unlocks with the reason (editable) and the CSRF token, says so, and shows the record as it is now', async () => {
    openAnswers();
    fakeApi.use(
      fakeCall(staffUnlockCall, () => ({
        status: 200,
        body: {
          done: true,
          customer: margaret({
            signIn: {
              locked: false,
              lockedUntil: null,
              lastSignInAt: '2026-12-06T09:15:00.000Z',
              lastSignInDevice: 'Chrome on Windows',
            },
          }),
        },
      })),
    );
    const { user } = renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    const unlock = within(actions()).getByRole('button', { name: 'Unlock sign-in' });
    expect(unlock).toHaveAttribute('aria-expanded', 'false');
    await user.click(unlock);
    expect(unlock).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('region', { name: 'Unlock their sign-in' });
    expect(within(panel).getByRole('heading', { level: 3 })).toHaveFocus();
    const reasonField = within(panel).getByRole('textbox', { name: 'Reason' });
    expect(reasonField).toHaveValue('CALL-0042');
    await user.type(reasonField, ' caller verified');
    await user.click(within(panel).getByRole('button', { name: 'Unlock sign-in' }));

    const done = await screen.findByRole('alert');
    expect(done).toHaveTextContent('The customer’s sign-in is unlocked.');
    expect(done).toHaveFocus();
    const [call] = callsTo(staffUnlockCall);
    expect(call?.body).toEqual({ reason: 'CALL-0042 caller verified' });
    expect(call?.headers.get('X-CSRF-Token')).toBe(CSRF);
    expect(screen.getByRole('region', { name: 'At a glance' })).toHaveTextContent('Sign-inNot locked');
    expect(within(actions()).queryByRole('button', { name: 'Unlock sign-in' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Unlock their sign-in' })).toBeNull();
  });

  it('keeps what was typed when an action fails, and says why in plain words', async () => {
    openAnswers();
    fakeApi.use(
      fakeCall(staffEndSessionsCall, ({ body }) =>
        body.reason.includes('again')
          ? { status: 503 }
          : { status: 409, body: { code: 'CONFLICT', message: 'No sessions', correlationId: 'corr-9' } },
      ),
    );
    const { user } = renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    await user.click(within(actions()).getByRole('button', { name: 'Sign out everywhere' }));
    const panel = screen.getByRole('region', { name: 'Sign the customer out everywhere' });
    const reasonField = within(panel).getByRole('textbox', { name: 'Reason' });
    await user.clear(reasonField);
    await user.type(reasonField, 'CALL-7');
    await user.click(within(panel).getByRole('button', { name: 'Sign them out' }));

    const conflict = await within(panel).findByRole('region', { name: 'There is a problem' });
    expect(conflict).toHaveTextContent('They were not signed in anywhere, so nothing was changed.');
    expect(conflict).toHaveTextContent('Reference: corr-9');
    expect(conflict).toHaveFocus();
    expect(reasonField).toHaveValue('CALL-7');

    await user.type(reasonField, ' again');
    await user.click(within(panel).getByRole('button', { name: 'Sign them out' }));
    await waitFor(() =>
      expect(within(panel).getByRole('region', { name: 'There is a problem' })).toHaveTextContent(
        'The service is not answering just now, so nothing was changed.',
      ),
    );
    expect(within(panel).getByRole('region', { name: 'There is a problem' })).toHaveFocus();
    expect(reasonField).toHaveValue('CALL-7 again');
  });

  it.each([
    [403, 'Your role does not allow this, or the page is out of date.'],
    [404, 'We could not find this customer.'],
  ] as const)('explains a %i from an action', async (status, text) => {
    openAnswers(margaret({ registration: { state: 'pending', activationSentAt: null } }));
    fakeApi.use(fakeCall(staffResendActivationCall, () => ({ status })));
    const { user } = renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    await user.click(within(actions()).getByRole('button', { name: 'Resend activation link' }));
    const panel = screen.getByRole('region', { name: 'Resend the activation link' });
    expect(panel).toHaveTextContent(
      'We will email a new activation link to margaret.thompson@example.co.uk.',
    );
    await user.click(within(panel).getByRole('button', { name: 'Send the link' }));
    expect(await within(panel).findByRole('region', { name: 'There is a problem' })).toHaveTextContent(text);
  });

  it('removes second factors only once chosen and the identity check confirmed', async () => {
    openAnswers();
    fakeApi.use(
      fakeCall(staffRemoveFactorsCall, () => ({
        status: 200,
        body: {
          done: true,
          customer: margaret({
            factors: [{ kind: 'text', destination: '+44 XXXX XXX123', count: 1, addedAt: null }],
          }),
        },
      })),
    );
    const { user } = renderConsole('/customers/C1000001', { who: staffOf.senior, state: reason });
    await recordHeading();
    await user.click(within(actions()).getByRole('button', { name: 'Remove second factors' }));
    const panel = screen.getByRole('region', { name: 'Remove second factors' });
    // Only what she has is offered: no passkeys.
    expect(
      within(panel)
        .getAllByRole('checkbox')
        .map((c) => c.getAttribute('value')),
    ).toEqual(['authenticator-app', 'backup-codes', null]);
    await user.click(within(panel).getByRole('button', { name: 'Remove' }));
    const summary = await within(panel).findByRole('alert');
    expect(within(summary).getByRole('link', { name: 'Choose what to remove' })).toHaveAttribute(
      'href',
      '#action-kinds',
    );
    expect(
      within(summary).getByRole('link', { name: 'Confirm you have checked who you are speaking to' }),
    ).toBeInTheDocument();
    expect(callsTo(staffRemoveFactorsCall)).toHaveLength(0);

    await user.click(within(panel).getByRole('checkbox', { name: 'Authenticator app' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'I have checked who I am speaking to' }));
    await user.click(within(panel).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('We have removed what you chose and emailed the customer.')).toBeVisible();
    expect(callsTo(staffRemoveFactorsCall)[0]?.body).toEqual({
      reason: 'CALL-0042',
      kinds: ['authenticator-app'],
      identityChecked: true,
    });
    // Nothing left to remove: the action goes.
    expect(within(actions()).queryByRole('button', { name: 'Remove second factors' })).toBeNull();
  });

  it('changes the email address after the identity check, with the new address checked first', async () => {
    openAnswers();
    fakeApi.use(
      fakeCall(staffChangeEmailCall, ({ body }) => ({
        status: 200,
        body: { done: true, customer: margaret({ email: body.email }) },
      })),
    );
    const { user } = renderConsole('/customers/C1000001', { who: staffOf.senior, state: reason });
    await recordHeading();
    await user.click(within(actions()).getByRole('button', { name: 'Change email address' }));
    const panel = screen.getByRole('region', { name: 'Change their email address' });
    const email = within(panel).getByRole('textbox', { name: 'New email address' });
    await user.type(email, 'not-an-email');
    await user.click(within(panel).getByRole('checkbox', { name: 'I have checked who I am speaking to' }));
    await user.click(within(panel).getByRole('button', { name: 'Change email address' }));
    expect(
      await within(panel).findByRole('link', { name: 'Enter an email address like name@example.com' }),
    ).toBeVisible();
    expect(email).toHaveAccessibleDescription(/Enter an email address like name@example.com/);
    await user.clear(email);
    await user.type(email, 'margaret.t@example.co.uk');
    await user.click(within(panel).getByRole('button', { name: 'Change email address' }));
    await screen.findByText('We have changed the customer’s email address and emailed both addresses.');
    expect(callsTo(staffChangeEmailCall)[0]?.body).toEqual({
      reason: 'CALL-0042',
      email: 'margaret.t@example.co.uk',
      identityChecked: true,
    });
    expect(screen.getByRole('region', { name: 'Identity questions' })).toHaveTextContent(
      'margaret.t@example.co.uk',
    );
  });

  it('cancels an action back to its button, sending nothing', async () => {
    openAnswers();
    const { user } = renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    const unlock = within(actions()).getByRole('button', { name: 'Unlock sign-in' });
    await user.click(unlock);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Unlock their sign-in' })).toBeNull();
    expect(unlock).toHaveFocus();
    expect(callsTo(staffUnlockCall)).toHaveLength(0);
  });

  it('sends the browser to sign in when an action finds the session ended (401)', async () => {
    openAnswers();
    fakeApi.use(fakeCall(staffUnlockCall, () => ({ status: 401 })));
    const { user, left } = renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    await user.click(within(actions()).getByRole('button', { name: 'Unlock sign-in' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Unlock their sign-in' })).getByRole('button', {
        name: 'Unlock sign-in',
      }),
    );
    await waitFor(() =>
      expect(left).toEqual([`/staff/sign-in?returnTo=${encodeURIComponent('/staff/customers/C1000001')}`]),
    );
  });
});

describe('seeing what the customer sees', () => {
  const panel = () => screen.getByRole('region', { name: 'See what the customer sees' });

  it('asks for the code, keeps what was typed when it is wrong, and gives the link to open in a new tab', async () => {
    openAnswers();
    let wrong = true;
    fakeApi.use(
      fakeCall(staffOpenSharedViewCall, () =>
        wrong
          ? {
              status: 422,
              body: { code: 'SHARE_CODE_WRONG', message: 'No', correlationId: 'c-1' },
            }
          : {
              status: 201,
              body: {
                url: 'http://localhost/account/shared-view#ticket=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
                linkExpiresAt: '2026-12-07T14:02:00Z',
                viewEndsAt: '2026-12-07T14:30:00Z',
              },
            },
      ),
    );
    const { user } = renderConsole('/customers/C1000001', { state: reason });
    await recordHeading();
    const code = within(panel()).getByRole('textbox', { name: 'Code the customer reads out' });
    expect(within(panel()).getByRole('textbox', { name: 'Reason' })).toHaveValue('CALL-0042');

    await user.click(within(panel()).getByRole('button', { name: 'Get the link' }));
    expect(
      await screen.findByRole('link', { name: 'Enter the 6-digit code the customer reads out' }),
    ).toBeVisible();
    expect(callsTo(staffOpenSharedViewCall)).toHaveLength(0);

    await user.type(code, '482 913');
    await user.click(within(panel()).getByRole('button', { name: 'Get the link' }));
    expect(await within(panel()).findByText(/That code is not right/)).toBeVisible();
    expect(code).toHaveValue('482 913');
    expect(callsTo(staffOpenSharedViewCall)[0]?.body).toEqual({ reason: 'CALL-0042', code: '482913' });

    wrong = false;
    await user.click(within(panel()).getByRole('button', { name: 'Get the link' }));
    const link = await within(panel()).findByRole('link', {
      name: 'Open Mrs Margaret Thompson’s account, read only (opens in a new tab)',
    });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(
      within(panel()).getByText(/The link works once, until 2:02pm\. The view ends by 2:30pm/),
    ).toBeVisible();
  });

  it('is not offered to an auditor', async () => {
    openAnswers();
    renderConsole('/customers/C1000001', { who: staffOf.auditor, state: reason });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: 'See what the customer sees' })).toBeNull();
  });
});
