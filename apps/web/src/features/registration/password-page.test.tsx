import { pageContent, type PageOf } from '@portal/contracts/content';
import { PASSWORD_SAME_AS_CURRENT } from '@portal/contracts/field-rules';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { authnCall, cancelCall, recoveryTokenCall, resetPasswordCall } from '@portal/contracts/identity';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import activateContent from '../../../../../content/pages/register-activate.json';
import recoveryContent from '../../../../../content/pages/forgotten-password-new-password.json';
import { renderAuthPage } from '../../session/testing/render-auth-page';
import { getSessionData } from '../../session/session-store';
import { setPageInit } from '../../lib/page-init';
import { readPendingCompletion } from '../../session/registration-journey';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { oktaError } from '../../test/fake-api/identity-scenario';
import { registrationScenario } from '../../test/fake-api/registration-scenario';
import PasswordPage from './password-page';

const activation = pageContent.parse(activateContent) as PageOf<'PasswordPage'>;
const recovery = pageContent.parse(recoveryContent) as PageOf<'PasswordPage'>;

let cleanupNavigator: (() => void) | undefined;
async function renderPasswordPage(page: PageOf<'PasswordPage'>, path: string) {
  const rendered = await renderAuthPage(<PasswordPage page={page} />, path);
  cleanupNavigator = rendered.unregister;
  return rendered;
}

beforeEach(() => registrationScenario());
afterEach(() => {
  cleanupNavigator?.();
  setPageInit(undefined);
});

const passwordBox = async () => screen.findByLabelText('Create a password');
const requirement = (rule: string) => document.querySelector(`[data-rule="${rule}"]`);

describe('PasswordPage', () => {
  it('sends an empty token straight to the registration page with the bad-token warning', async () => {
    const { location } = await renderPasswordPage(activation, '/register/activate');
    await waitFor(() => expect(location().pathname).toBe('/register'));
    expect(location().search).toBe('?warning=bad-token');
    expect(callsTo(authnCall)).toHaveLength(0);
  });

  it('sends a refused activation token to the registration page with the bad-token warning', async () => {
    fakeApi.use(
      fakeCall(authnCall, () => ({ status: 401, body: oktaError('E0000004', 'Authentication failed') })),
    );
    const { location } = await renderPasswordPage(activation, '/register/activate?token=used-token');
    await waitFor(() => expect(location().search).toBe('?warning=bad-token'));
    expect(callsTo(authnCall)[0]!.body).toEqual({ token: 'used-token' });
  });

  it('shows the live requirements from settings, always with "No spaces", and enables saving when all are met', async () => {
    const user = userEvent.setup();
    await renderPasswordPage(activation, '/register/activate?token=good-token');
    const box = await passwordBox();
    expect(callsTo(authnCall)).toHaveLength(1);
    expect(localStorage.getItem('registrationJourney')).toBe('1');
    const list = screen.getByText('Your password must have:').parentElement!;
    expect(within(list).getByText(/at least 12 characters/)).toBeInTheDocument();
    expect(within(list).getByText(/no spaces/)).toBeInTheDocument();
    expect(box).toHaveAccessibleDescription(/Your password must have/);
    const save = screen.getByRole('button', { name: 'Create password' });
    expect(save).toHaveAttribute('aria-disabled', 'true');

    await user.type(box, 'short');
    expect(requirement('minLength')).toHaveAttribute('data-met', 'false');
    expect(requirement('noSpaces')).toHaveAttribute('data-met', 'true');
    await user.type(box, ' with spaces');
    expect(requirement('minLength')).toHaveAttribute('data-met', 'true');
    expect(requirement('noSpaces')).toHaveAttribute('data-met', 'false');
    expect(save).toHaveAttribute('aria-disabled', 'true');
    await user.clear(box);
    await user.type(box, 'OrchardLane1978');
    expect(save).not.toHaveAttribute('aria-disabled');
  });

  it('shows the identity provider message on 403 and clears the field', async () => {
    fakeApi.use(
      fakeCall(resetPasswordCall, () => ({
        status: 403,
        body: oktaError('E0000014', 'Update of credentials failed', [
          'Password requirements were not met: the password must not be a commonly used password.',
        ]),
      })),
    );
    const user = userEvent.setup();
    const { location } = await renderPasswordPage(activation, '/register/activate?token=good-token');
    const box = await passwordBox();
    await user.type(box, 'Password12345');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('the password must not be a commonly used password');
    expect(alert).toHaveFocus();
    expect(box).toHaveValue('');
    expect(location().pathname).toBe('/register/activate');
    expect(callsTo(resetPasswordCall)[0]!.body).toEqual({
      stateToken: 'state-activation',
      newPassword: 'Password12345',
    });
  });

  it('clears the session and opens the error fallback for any other failure', async () => {
    fakeApi.use(fakeCall(resetPasswordCall, () => ({ status: 500 })));
    sessionStorage.setItem('authState', JSON.stringify({ status: 'mfaRequired', stateToken: 'old' }));
    const user = userEvent.setup();
    const { location } = await renderPasswordPage(activation, '/register/activate?token=good-token');
    await user.type(await passwordBox(), 'OrchardLane1978');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    await waitFor(() => expect(location().pathname).toBe('/error'));
    expect(sessionStorage.getItem('authState')).toBeNull();
    expect(callsTo(cancelCall).map((c) => c.body)).toContainEqual({
      stateToken: 'state-activation',
    });
  });

  it('continues to the code step with the new transaction and keeps the registration completion for later', async () => {
    const user = userEvent.setup();
    const { visited } = await renderPasswordPage(activation, '/register/activate?token=good-token');
    await user.type(await passwordBox(), 'OrchardLane1978');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    await waitFor(() => expect(visited()).toContain('/login/verify'));
    expect(getSessionData()).toMatchObject({
      status: 'mfaRequired',
      stateToken: 'state-activation',
      oktaUserId: '00u-eleanor',
      factors: [{ id: 'sms-eleanor', type: 'sms', phoneNumber: '+44 XXXX XXX321' }],
    });
    expect(readPendingCompletion()).toMatchObject({
      oktaUserId: '00u-eleanor',
      stateToken: 'state-activation',
    });
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((a) => [a.body.eventId, a.body.isSuccess])).toEqual(
        expect.arrayContaining([
          ['AccountActivation', true],
          ['PasswordSet', true],
        ]),
      ),
    );
  });

  it('checks a recovery token as a recovery and sets the new password in that transaction', async () => {
    const user = userEvent.setup();
    const { visited } = await renderPasswordPage(
      recovery,
      '/forgotten-password/new-password?token=reset-token',
    );
    const box = await screen.findByLabelText('New password');
    expect(callsTo(recoveryTokenCall)[0]!.body).toEqual({
      recoveryToken: 'reset-token',
    });
    expect(localStorage.getItem('registrationJourney')).toBeNull();
    await user.type(box, 'BluebellMeadow2024');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() => expect(visited()).toContain('/login/verify'));
    expect(callsTo(resetPasswordCall)[0]!.body).toEqual({
      stateToken: 'state-recovery',
      newPassword: 'BluebellMeadow2024',
    });
    expect(readPendingCompletion()).toBeNull();
  });

  it('sends an expired or used reset link to the forgotten-password page, which offers a new link', async () => {
    fakeApi.use(
      fakeCall(recoveryTokenCall, () => ({
        status: 403,
        body: oktaError('E0000105', 'You have accessed an account recovery link that has expired'),
      })),
    );
    const { location } = await renderPasswordPage(recovery, '/forgotten-password/new-password?token=old');
    await waitFor(() => expect(location().search).toBe('?warning=bad-token'));
    expect(location().pathname).toBe('/forgotten-password');
  });

  it('sends an empty reset link to the forgotten-password page too', async () => {
    const { location } = await renderPasswordPage(recovery, '/forgotten-password/new-password');
    await waitFor(() => expect(location().pathname).toBe('/forgotten-password'));
    expect(location().search).toBe('?warning=bad-token');
    expect(callsTo(recoveryTokenCall)).toHaveLength(0);
  });

  it("refuses the current password with the page's own text, beside the field and in the summary", async () => {
    // The identity service names the rule in errorCauses, as it does for a password change.
    fakeApi.use(
      fakeCall(resetPasswordCall, () => ({
        status: 403,
        body: oktaError('E0000014', 'Update of credentials failed', [PASSWORD_SAME_AS_CURRENT]),
      })),
    );
    const sameAsCurrent = recoveryContent.messages.sameAsCurrentPasswordMessage;
    expect(sameAsCurrent).not.toBe(PASSWORD_SAME_AS_CURRENT);
    const user = userEvent.setup();
    const { location } = await renderPasswordPage(
      recovery,
      '/forgotten-password/new-password?token=reset-token',
    );
    const box = await screen.findByLabelText('New password');
    await user.type(box, 'BluebellCottage1952');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: sameAsCurrent })).toHaveAttribute(
      'href',
      '#recovery-new-password',
    );
    expect(box).toHaveAccessibleDescription(new RegExp(`^Error: ${sameAsCurrent}`));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveValue('');
    expect(location().pathname).toBe('/forgotten-password/new-password');
  });

  it('shows the rule the identity service names for any other refused password', async () => {
    const rule = 'This password is too common or has appeared in a data breach. Choose a different one.';
    fakeApi.use(
      fakeCall(resetPasswordCall, () => ({
        status: 403,
        body: oktaError('E0000014', 'Update of credentials failed', [rule]),
      })),
    );
    const user = userEvent.setup();
    await renderPasswordPage(recovery, '/forgotten-password/new-password?token=reset-token');
    const box = await screen.findByLabelText('New password');
    await user.type(box, 'Qwertyuiop12345');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    await screen.findByRole('alert');
    expect(box).toHaveAccessibleDescription(new RegExp(`^Error: ${rule}`));
  });

  it('opens the error fallback when the identity provider cannot be reached', async () => {
    fakeApi.use(fakeCall(authnCall, () => ({ status: 'network error' })));
    const { location } = await renderPasswordPage(activation, '/register/activate?token=good-token');
    await waitFor(() => expect(location().pathname).toBe('/error'));
  });
});
