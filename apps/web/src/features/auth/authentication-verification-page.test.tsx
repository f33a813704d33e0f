import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { cancelCall, factorVerifyCall } from '@portal/contracts/identity';
import { beforeEach, describe, expect, it } from 'vitest';
import { reachVerification } from '../../session/testing/journey';
import { contentPages, renderAuthPage } from '../../session/testing/render-auth-page';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { david, identityScenario, margaret, oktaError } from '../../test/fake-api/identity-scenario';
import AuthenticationVerificationPage from './authentication-verification-page';

const page = contentPages.verify;

beforeEach(() => {
  identityScenario();
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
        status: 502,
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
});
