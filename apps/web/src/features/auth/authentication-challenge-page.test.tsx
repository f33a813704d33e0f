import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { factorResendCall, factorVerifyCall } from '@portal/contracts/identity';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reachChallenge } from '../../session/testing/journey';
import { contentPages, renderAuthPage } from '../../session/testing/render-auth-page';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import {
  david,
  identityScenario,
  margaret,
  oktaError,
  type IdentityScenario,
} from '../../test/fake-api/identity-scenario';
import AuthenticationChallengePage from './authentication-challenge-page';

const page = contentPages.challenge;
let identity: IdentityScenario;

beforeEach(() => {
  identity = identityScenario();
});
afterEach(() => {
  vi.useRealTimers();
});

const renderChallenge = () =>
  renderAuthPage(<AuthenticationChallengePage page={page} />, '/login/verify/challenge');
const boxes = () => screen.getAllByRole('textbox', { name: /^Digit \d of \d$/ });
const continueButton = () => screen.getByRole('button', { name: 'Continue' });
const resendButton = () => screen.getByRole('button', { name: 'Send a new code' });

describe('AuthenticationChallengePage', () => {
  it('shows six boxes for a text message, one-time-code autofill on the first', async () => {
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    expect(boxes()).toHaveLength(6);
    expect(boxes()[0]).toHaveAttribute('autocomplete', 'one-time-code');
    expect(boxes()[0]).toHaveAttribute('inputmode', 'numeric');
    expect(
      screen.getByText(/We have sent a text message with a code to \+44 XXXX XXX123/),
    ).toBeInTheDocument();
  });

  it('shows five boxes for a call to a landline', async () => {
    await reachChallenge(david, 'call');
    await renderChallenge();
    expect(boxes()).toHaveLength(5);
    expect(screen.getByText(/We are calling \+44 XXXX XXX456 now/)).toBeInTheDocument();
  });

  it('helps with a code that has not come in the words of its channel: a text message or a call', async () => {
    await reachChallenge(margaret, 'sms');
    const sms = await renderChallenge();
    expect(screen.getByRole('heading', { name: 'Not received a code?' })).toBeInTheDocument();
    expect(screen.getByText(/Text messages can take a few minutes to arrive/)).toBeInTheDocument();
    expect(screen.queryByText(/missed the call/)).not.toBeInTheDocument();
    sms.unmount();

    await reachChallenge(david, 'call');
    await renderChallenge();
    expect(screen.getByRole('heading', { name: 'Not received a code?' })).toBeInTheDocument();
    expect(screen.getByText(/If you missed the call or did not catch the code/)).toBeInTheDocument();
    expect(screen.queryByText(/text message/i)).not.toBeInTheDocument();
  });

  it('names an unfinished code in the summary and beside the boxes only, once Continue is pressed', async () => {
    const user = userEvent.setup();
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    await user.click(boxes()[0]!);
    await user.keyboard('12');
    await user.click(continueButton());
    const summary = await screen.findByRole('alert');
    expect(
      within(summary).getByRole('link', { name: 'Enter the 6-digit code, using numbers only' }),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Enter the 6-digit code, using numbers only')).toHaveLength(2);
    expect(screen.queryByText('Enter the full code, using numbers only.')).not.toBeInTheDocument();
    expect(continueButton()).not.toHaveAttribute('aria-describedby');
  });

  it('takes digits only, one per box, and enables Continue when the code is complete', async () => {
    const user = userEvent.setup();
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    expect(continueButton()).toHaveAttribute('aria-disabled', 'true');
    await user.click(boxes()[0]!);
    await user.keyboard('12a');
    expect(screen.getByText('Enter numbers only')).toBeInTheDocument();
    await user.keyboard('3');
    expect(boxes().map((b) => (b as HTMLInputElement).value)).toEqual(['1', '2', '3', '', '', '']);
    await user.keyboard('456');
    expect(continueButton()).not.toHaveAttribute('aria-disabled');
  });

  it('says the code is not finished once it is started, as the description of Continue', async () => {
    const user = userEvent.setup();
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    const message = 'Enter the full code, using numbers only.';
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    await user.click(boxes()[0]!);
    await user.keyboard('12');
    const shown = screen.getByText(message);
    expect(shown.closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
    expect(continueButton()).toHaveAccessibleDescription(`Error: ${message}`);
    expect(boxes()[2]).toHaveFocus();
    await user.keyboard('3456');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    expect(continueButton()).not.toHaveAttribute('aria-disabled');
  });

  it('accepts a paste only when it is all digits and the right count', async () => {
    const user = userEvent.setup();
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    await user.click(boxes()[2]!);
    await user.paste('12345');
    expect(boxes().every((b) => (b as HTMLInputElement).value === '')).toBe(true);
    expect(screen.getByText(/That paste was not used/)).toBeInTheDocument();
    await user.paste('12a456');
    expect(boxes().every((b) => (b as HTMLInputElement).value === '')).toBe(true);
    await user.paste(' 654321\n');
    expect(boxes().map((b) => (b as HTMLInputElement).value)).toEqual(['6', '5', '4', '3', '2', '1']);
  });

  it('spreads a whole code auto-filled into any box across the boxes', async () => {
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    fireEvent.change(boxes()[3]!, { target: { value: '987654' } });
    expect(boxes().map((b) => (b as HTMLInputElement).value)).toEqual(['9', '8', '7', '6', '5', '4']);
  });

  it('shows submitErrorMessage and empties the boxes for a wrong code, then takes the right one', async () => {
    const user = userEvent.setup();
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    await user.click(boxes()[0]!);
    const right = identity.lastCode()!;
    const wrong = right === '000000' ? '111111' : '000000';
    await user.keyboard(wrong);
    await user.click(continueButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That code is not right or has expired');
    expect(boxes().every((b) => (b as HTMLInputElement).value === '')).toBe(true);
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((c) => c.body)).toContainEqual(
        expect.objectContaining({
          eventId: 'MfaVerify',
          isSuccess: false,
          failureReason: 'Authentication failure',
          mfaSendMethod: 'sms',
        }),
      ),
    );

    await user.click(boxes()[0]!);
    await user.keyboard(right);
    await user.click(continueButton());
    // The code is accepted: status success, and the OpenID redirect has been prepared (PKCE state stored).
    await waitFor(() =>
      expect(JSON.parse(sessionStorage.getItem('authState')!)).toEqual({
        status: 'success',
        verifiedWith: 'sms',
        oktaUserId: margaret.id,
      }),
    );
    await waitFor(() => expect(Object.keys(sessionStorage).some((k) => k.startsWith('oidc.'))).toBe(true));
    // The stored state is what shows the redirect was prepared. Whether this test sees the discovery
    // request depends on an earlier test of the file (the OpenID client keeps the metadata it read).
  });

  it('keeps Send a new code unavailable for 30 seconds after load and after each use, with a countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await reachChallenge(margaret, 'sms');
    await renderChallenge();
    expect(resendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(resendButton()).toHaveAccessibleDescription('You can ask for a new code in 30 seconds');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(resendButton()).toHaveAccessibleDescription('You can ask for a new code in 20 seconds');
    const sentBefore = callsTo(factorResendCall).length;
    await user.click(resendButton());
    expect(callsTo(factorResendCall)).toHaveLength(sentBefore);

    await act(() => vi.advanceTimersByTimeAsync(20_500));
    expect(resendButton()).not.toHaveAttribute('aria-disabled');
    await user.click(resendButton());
    await waitFor(() => expect(callsTo(factorResendCall)).toHaveLength(sentBefore + 1));
    expect(await screen.findByText('We have sent you a new code.')).toBeInTheDocument();
    expect(resendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(resendButton()).toHaveAccessibleDescription('You can ask for a new code in 30 seconds');
  });

  it('signs the customer out when a new code cannot be sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    fakeApi.use(fakeCall(factorResendCall, () => ({ status: 503, body: oktaError('E0000009', 'Not sent') })));
    await reachChallenge(margaret, 'sms');
    const { location } = await renderChallenge();
    await act(() => vi.advanceTimersByTimeAsync(30_500));
    await user.click(resendButton());
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(sessionStorage.getItem('authState')).toBeNull();
  });

  it('explains a lockout after wrong codes and offers a way back to sign in', async () => {
    const user = userEvent.setup();
    let wrongs = 0;
    fakeApi.use(
      fakeCall(factorVerifyCall, ({ body }) => {
        if (!body.passCode) return undefined;
        wrongs += 1;
        return wrongs === 1
          ? { status: 403, body: oktaError('E0000068', 'Invalid Passcode/Answer') }
          : { status: 401, body: oktaError('E0000011', 'Invalid token provided') };
      }),
    );
    await reachChallenge(margaret, 'sms');
    const { location } = await renderChallenge();
    for (let i = 0; i < 2; i += 1) {
      await user.click(boxes()[0]!);
      await user.keyboard('123456');
      await user.click(continueButton());
      await screen.findByRole('alert');
    }
    expect(screen.getByRole('alert')).toHaveTextContent('You have entered the wrong code too many times');
    await user.click(within(screen.getByRole('article')).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
  });
});
