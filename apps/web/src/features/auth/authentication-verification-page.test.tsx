import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { cancelCall, factorVerifyCall } from '@portal/contracts/identity';
import { beforeEach, describe, expect, it } from 'vitest';
import { reachVerification } from '../../session/testing/journey';
import { contentPages, renderAuthPage } from '../../session/testing/render-auth-page';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import {
  appCode,
  david,
  identityScenario,
  margaret,
  oktaError,
  rosemary,
} from '../../test/fake-api/identity-scenario';
import AuthenticationVerificationPage, { factorOptions } from './authentication-verification-page';

const page = contentPages.verify;

beforeEach(() => {
  identityScenario([margaret, david, rosemary]);
});

const renderVerify = () => renderAuthPage(<AuthenticationVerificationPage page={page} />, '/login/verify');

describe('AuthenticationVerificationPage', () => {
  it('offers a text or a call to the masked numbers the provider gave', async () => {
    await reachVerification(margaret);
    await renderVerify();
    expect(screen.getByRole('radio', { name: 'Text message to +44 XXXX XXX123' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Phone call to +44 XXXX XXX789' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send code' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('asks for the choice when Send code is pressed without one', async () => {
    const user = userEvent.setup();
    await reachVerification(margaret);
    await renderVerify();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent('Choose how you would like to get your security code');
    expect(summary).toHaveFocus();
  });

  it('sends the code by the chosen method and opens the challenge page', async () => {
    const user = userEvent.setup();
    await reachVerification(margaret);
    const { location } = await renderVerify();
    await user.click(screen.getByRole('radio', { name: 'Phone call to +44 XXXX XXX789' }));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(location().pathname).toBe('/login/verify/challenge'));
    expect(callsTo(factorVerifyCall).some((c) => c.params.factorId === 'call-margaret')).toBe(true);
    expect(JSON.parse(sessionStorage.getItem('authState')!)).toMatchObject({
      status: 'mfaChallenge',
      factorId: 'call-margaret',
      factorType: 'call',
      phoneNumber: '+44 XXXX XXX789',
      landlineIsAMobile: false,
    });
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((c) => c.body)).toContainEqual(
        expect.objectContaining({ eventId: 'MfaCodeSent', mfaSendMethod: 'call', isSuccess: true }),
      ),
    );
  });

  it('selects the only method a customer has', async () => {
    await reachVerification(david);
    await renderVerify();
    expect(screen.getByRole('radio', { name: 'Phone call to +44 XXXX XXX456' })).toBeChecked();
    expect(screen.queryByRole('radio', { name: /Text message/ })).not.toBeInTheDocument();
  });

  it('clears the session and goes back to the start when the code cannot be sent', async () => {
    const user = userEvent.setup();
    fakeApi.use(
      fakeCall(factorVerifyCall, () => ({
        status: 503,
        body: oktaError('E0000009', 'We could not send the code.'),
      })),
    );
    await reachVerification(margaret);
    const { location } = await renderVerify();
    await user.click(screen.getByRole('radio', { name: 'Text message to +44 XXXX XXX123' }));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(sessionStorage.getItem('authState')).toBeNull();
    // The transaction is ended at the provider too.
    expect(callsTo(cancelCall)).not.toHaveLength(0);
  });

  it('goes to the start when opened without a sign-in in progress', async () => {
    const { location } = await renderVerify();
    await waitFor(() => expect(location().pathname).toBe('/login'));
  });

  describe('with an authenticator app and backup codes', () => {
    it('lists every method the customer has, in the provider order, and leaves out types it cannot use', async () => {
      await reachVerification(rosemary);
      await renderVerify();
      expect(
        screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).labels?.[0]?.textContent),
      ).toEqual(['Authenticator app', 'Text message to +44 XXXX XXX666', 'A backup code (2 left)']);
    });

    it('takes the app code without sending anything, says when it is wrong and keeps it, then signs in', async () => {
      const user = userEvent.setup();
      await reachVerification(rosemary);
      await renderVerify();
      await user.click(screen.getByRole('radio', { name: 'Authenticator app' }));
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      const heading = await screen.findByRole('heading', {
        level: 1,
        name: 'Enter the code from your authenticator app',
      });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(callsTo(factorVerifyCall)).toHaveLength(0);

      const field = screen.getByRole('textbox', { name: 'Code from your app' });
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(
        await screen.findByRole('link', { name: 'Enter the 6-digit code, using numbers only' }),
      ).toBeInTheDocument();
      await user.type(field, '111111');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('That code is not right.');
      await waitFor(() => expect(alert).toHaveFocus());
      expect(field).toHaveValue('111111');

      await user.clear(field);
      await user.type(field, appCode);
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(Object.keys(sessionStorage).some((k) => k.startsWith('oidc.'))).toBe(true));
      expect(callsTo(factorVerifyCall).at(-1)).toMatchObject({
        params: { factorId: 'totp-rosemary' },
        body: { passCode: appCode },
      });
    });

    it('takes a backup code typed loosely, says when it is wrong, and goes back to the choice', async () => {
      const user = userEvent.setup();
      await reachVerification(rosemary);
      await renderVerify();
      await user.click(screen.getByRole('radio', { name: 'A backup code (2 left)' }));
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await screen.findByRole('heading', { level: 1, name: 'Enter a backup code' });
      const field = screen.getByRole('textbox', { name: 'Backup code' });
      await user.type(field, 'acd');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(
        await screen.findByRole('link', { name: /Enter the 8-character backup code/ }),
      ).toBeInTheDocument();

      // Typed loosely (lower case, a space): sent as the code it is; a wrong or used one is refused.
      await user.clear(field);
      await user.type(field, 'kmnp qrtx');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'That backup code is not right or has been used.',
      );
      expect(callsTo(factorVerifyCall).at(-1)?.body).toMatchObject({ passCode: 'KMNP-QRTX' });
      expect(field).toHaveValue('kmnp qrtx');

      await user.click(screen.getByRole('button', { name: 'Choose another way' }));
      const chooser = await screen.findByRole('heading', { level: 1, name: page.heading });
      await waitFor(() => expect(chooser).toHaveFocus());
      expect(screen.getByRole('radio', { name: 'A backup code (2 left)' })).toBeChecked();
    });
  });
});

describe('factorOptions', () => {
  const field = {
    name: 'factorType',
    type: 'radio',
    label: 'How would you like to get your code?',
    required: true,
    disabled: false,
    options: [
      { id: 'verify-method-sms', label: 'Text message to {number}', value: 'sms' },
      { id: 'verify-method-call', label: 'Phone call to {number}', value: 'call' },
    ],
  } as Parameters<typeof factorOptions>[0];

  it('tells a call to the mobile from one to the landline when their numbers end alike (issue 38)', () => {
    const labels = factorOptions(field, [
      { id: 'sms-1', type: 'sms', phoneNumber: '+44 XXXX XXX666' },
      { id: 'call-1', type: 'call', phoneNumber: '+44 XXXX XXX666', line: 'mobile' },
      { id: 'call-2', type: 'call', phoneNumber: '+44 XXXX XXX666', line: 'landline' },
    ]).map((option) => option.label);
    expect(labels).toEqual([
      'Text message to +44 XXXX XXX666',
      'Phone call to your mobile, +44 XXXX XXX666',
      'Phone call to your landline, +44 XXXX XXX666',
    ]);
    expect(new Set(labels).size).toBe(3);
  });

  it('keeps content’s label for a single call, and for calls whose lines the provider does not say', () => {
    expect(
      factorOptions(field, [
        { id: 'call-1', type: 'call', phoneNumber: '+44 XXXX XXX456', line: 'landline' },
      ]).map((option) => option.label),
    ).toEqual(['Phone call to +44 XXXX XXX456']);
    expect(
      factorOptions(field, [
        { id: 'call-1', type: 'call', phoneNumber: '+44 XXXX XXX456' },
        { id: 'call-2', type: 'call', phoneNumber: '+44 XXXX XXX789' },
      ]).map((option) => option.label),
    ).toEqual(['Phone call to +44 XXXX XXX456', 'Phone call to +44 XXXX XXX789']);
  });
});
