import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { authnCall, recoveryTokenCall, recoveryUnlockCall } from '@portal/contracts/identity';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contentPages, renderAuthPage } from '../../session/testing/render-auth-page';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { identityScenario, margaret, oktaError } from '../../test/fake-api/identity-scenario';
import LoginPage from './login-page';

const page = contentPages.login;

const unlockChallenge = {
  status: 'RECOVERY_CHALLENGE',
  factorResult: 'WAITING',
  factorType: 'EMAIL',
  recoveryType: 'UNLOCK',
} as const;

beforeEach(() => {
  identityScenario();
  fakeApi.use(fakeCall(recoveryUnlockCall, () => ({ status: 200, body: unlockChallenge })));
  // Only the clock's date is fixed (14:05 in London, November: GMT); timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-25T14:05:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const emailBox = () => screen.getByRole('textbox', { name: 'Email address' });
const passwordBox = () => screen.getByLabelText('Password');
const unlockButton = () => screen.queryByRole('button', { name: 'Email me a link to unlock my account' });

async function failSignIn() {
  const user = userEvent.setup();
  const rendered = await renderAuthPage(<LoginPage page={page} />, '/login');
  await user.type(emailBox(), margaret.email);
  await user.type(passwordBox(), 'WrongPassword1');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('alert');
  return { user, ...rendered };
}

describe('LoginPage: a locked account', () => {
  it('after a failed sign-in says when a locked account opens again and offers an unlock link', async () => {
    await failSignIn();
    expect(screen.getByRole('alert')).toHaveTextContent('The email address or password is not right');
    expect(screen.getByText(/you can sign in again from 14:35, or unlock it now/)).toBeInTheDocument();
    expect(unlockButton()).toBeInTheDocument();
  });

  it('emails the unlock link for the address entered, and says so whatever the account', async () => {
    const { user } = await failSignIn();
    await user.click(unlockButton()!);
    const banner = await screen.findByText(/we have emailed a link to unlock it to/);
    expect(banner).toHaveTextContent(
      `If your account is locked, we have emailed a link to unlock it to ${margaret.email}.`,
    );
    expect(callsTo(recoveryUnlockCall).map((c) => c.body)).toEqual([
      { username: margaret.email, factorType: 'EMAIL' },
    ]);
    // Sent: the offer goes, so it is not sent twice by mistake.
    expect(unlockButton()).not.toBeInTheDocument();
  });

  it('says to wait when unlock links are asked for too often', async () => {
    fakeApi.use(
      fakeCall(recoveryUnlockCall, () => ({
        status: 429,
        body: oktaError('E0000047', 'API call exceeded rate limit due to too many requests.'),
        headers: { 'Retry-After': '600' },
      })),
    );
    const { user } = await failSignIn();
    await user.click(unlockButton()!);
    expect(await screen.findByText(/too many attempts to sign in/)).toBeInTheDocument();
  });

  it('offers no unlock when sign-in failed for another reason (too many requests)', async () => {
    fakeApi.use(
      fakeCall(authnCall, () => ({
        status: 429,
        body: oktaError('E0000047', 'rate'),
        headers: { 'Retry-After': '30' },
      })),
    );
    await failSignIn();
    expect(screen.getByRole('alert')).toHaveTextContent('too many attempts');
    expect(unlockButton()).not.toBeInTheDocument();
  });

  it('unlocks with the emailed link (/login?unlock=...), then drops the token from the address', async () => {
    fakeApi.use(
      fakeCall(recoveryTokenCall, () => ({
        status: 200,
        body: { status: 'UNAUTHENTICATED', recoveryType: 'UNLOCK' },
      })),
    );
    const { location } = await renderAuthPage(
      <LoginPage page={page} />,
      '/login?unlock=tok-123&RelayState=x',
    );
    const message = await screen.findByText(/Your account is unlocked/);
    expect(message.closest('[role="alert"]')).not.toBeNull();
    expect(callsTo(recoveryTokenCall).map((c) => c.body)).toEqual([{ recoveryToken: 'tok-123' }]);
    await waitFor(() => expect(location().search).toBe('?RelayState=x'));
    // The sign-in form is there to go on with.
    expect(emailBox()).toBeInTheDocument();
  });

  it('says when an unlock link has expired or was used', async () => {
    fakeApi.use(
      fakeCall(recoveryTokenCall, () => ({
        status: 403,
        body: oktaError(
          'E0000105',
          'You have accessed an account recovery link that has expired or been previously used.',
        ),
      })),
    );
    await renderAuthPage(<LoginPage page={page} />, '/login?unlock=used-token');
    expect(
      await screen.findByText(/This unlock link has expired or has already been used/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Your account is unlocked/)).not.toBeInTheDocument();
  });
});
