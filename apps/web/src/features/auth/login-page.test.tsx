import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { authnCall } from '@portal/contracts/identity';
import { beforeEach, describe, expect, it } from 'vitest';
import { contentPages, renderAuthPage } from '../../session/testing/render-auth-page';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { identityScenario, margaret, oktaError } from '../../test/fake-api/identity-scenario';
import LoginPage from './login-page';

const page = contentPages.login;
const audits = () => callsTo(postAuditEventCall).map((c) => c.body);

beforeEach(() => {
  identityScenario();
});

async function renderLogin(path = '/login') {
  return renderAuthPage(<LoginPage page={page} />, path);
}

const emailBox = () => screen.getByRole('textbox', { name: 'Email address' });
const passwordBox = () => screen.getByLabelText('Password');
const signInButton = () => screen.getByRole('button', { name: 'Sign in' });

describe('LoginPage', () => {
  it('enables sign in only when the email and password are valid', async () => {
    const user = userEvent.setup();
    await renderLogin();
    expect(signInButton()).toHaveAttribute('aria-disabled', 'true');
    await user.type(emailBox(), 'margaret.thompson@example');
    await user.type(passwordBox(), 'secret');
    expect(signInButton()).toHaveAttribute('aria-disabled', 'true');
    await user.type(emailBox(), '.co.uk');
    expect(signInButton()).not.toHaveAttribute('aria-disabled');
  });

  it('explains why Sign in is unavailable once the email is started, quietly, until the form is valid', async () => {
    const user = userEvent.setup();
    await renderLogin();
    const message = 'Enter your email address and password to sign in.';
    await user.type(passwordBox(), 'secret');
    // Only the first input having a value brings it (spec section 5).
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    await user.type(emailBox(), 'm');
    const shown = screen.getByText(message);
    // Static text, not an alert or live region that would speak at every keystroke; Sign in carries it.
    expect(shown.closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(signInButton()).toHaveAccessibleDescription(`Error: ${message}`);
    expect(emailBox()).toHaveFocus();

    await user.type(emailBox(), 'argaret.thompson@example.co.uk');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    expect(signInButton()).not.toHaveAttribute('aria-describedby');
    expect(signInButton()).not.toHaveAttribute('aria-disabled');
  });

  it('does nothing with an invalid email except show what to fix, tied to the field', async () => {
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), 'not-an-email');
    await user.type(passwordBox(), 'whatever{Enter}');
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: page.fields[0]!.errorMessage })).toHaveAttribute(
      'href',
      '#login-email',
    );
    expect(summary).toHaveFocus();
    expect(emailBox()).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(authnCall)).toHaveLength(0);
  });

  it('after a wrong password shows only the summary: no inline error on fields that are filled in', async () => {
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), margaret.email);
    await user.type(passwordBox(), 'WrongPassword1');
    await user.click(signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('The email address or password is not right');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Enter your email address and password to sign in.')).not.toBeInTheDocument();
    expect(emailBox()).not.toHaveAttribute('aria-invalid');
    expect(passwordBox()).not.toHaveAttribute('aria-invalid');
    expect(signInButton()).not.toHaveAttribute('aria-describedby');
  });

  it('names the one field at fault: in the summary, linked, and beside that field only', async () => {
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), margaret.email);
    await user.click(signInButton());
    const summary = await screen.findByRole('alert');
    expect(within(summary).getAllByRole('link')).toHaveLength(1);
    expect(within(summary).getByRole('link', { name: 'Enter your password' })).toHaveAttribute(
      'href',
      '#login-password',
    );
    expect(passwordBox()).toHaveAccessibleDescription(/^Error: Enter your password/);
    expect(emailBox()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Enter your email address and password to sign in.')).not.toBeInTheDocument();
  });

  it('shows the wrong-credentials message, keeps the email, clears the password and audits the failure', async () => {
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), margaret.email);
    await user.type(passwordBox(), 'WrongPassword1');
    await user.click(signInButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The email address or password is not right');
    expect(alert).toHaveFocus();
    expect(emailBox()).toHaveValue(margaret.email);
    expect(passwordBox()).toHaveValue('');
    await waitFor(() =>
      expect(audits()).toContainEqual(
        expect.objectContaining({
          eventId: 'Login',
          isSuccess: false,
          failureReason: 'Authentication failure',
          authenticationStatus: 'Unauthenticated',
        }),
      ),
    );
  });

  it('stores the session data and opens the verification page when a code is needed', async () => {
    const user = userEvent.setup();
    const { location } = await renderLogin();
    await user.type(emailBox(), `  ${margaret.email} `);
    await user.type(passwordBox(), margaret.password);
    await user.click(signInButton());
    await waitFor(() => expect(location().pathname).toBe('/login/verify'));
    const authn = callsTo(authnCall)[0];
    expect(authn?.body).toEqual({ username: margaret.email, password: margaret.password });
    const stored = JSON.parse(sessionStorage.getItem('authState') ?? 'null') as Record<string, unknown>;
    expect(stored).toMatchObject({
      status: 'mfaRequired',
      stateToken: expect.any(String),
      oktaUserId: margaret.id,
      factors: [
        { id: 'sms-margaret', type: 'sms', phoneNumber: '+44 XXXX XXX123' },
        { id: 'call-margaret', type: 'call', phoneNumber: '+44 XXXX XXX789' },
      ],
    });
  });

  it('explains a locked account instead of showing a blank page', async () => {
    fakeApi.resetHandlers();
    identityScenario([{ ...margaret, statusOverride: 'LOCKED_OUT' }]);
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), margaret.email);
    await user.type(passwordBox(), margaret.password);
    await user.click(signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is locked');
    expect(screen.getByRole('link', { name: 'Reset your password' })).toHaveAttribute(
      'href',
      '/forgotten-password',
    );
    expect(sessionStorage.getItem('authState')).toBeNull();
  });

  it('explains an expired password', async () => {
    fakeApi.resetHandlers();
    identityScenario([{ ...margaret, statusOverride: 'PASSWORD_EXPIRED' }]);
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), margaret.email);
    await user.type(passwordBox(), margaret.password);
    await user.click(signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Your password has expired');
  });

  it('asks the customer to wait when there were too many attempts', async () => {
    fakeApi.use(
      fakeCall(authnCall, () => ({
        status: 429,
        body: oktaError('E0000047', 'rate'),
        headers: { 'Retry-After': '30' },
      })),
    );
    const user = userEvent.setup();
    await renderLogin();
    await user.type(emailBox(), margaret.email);
    await user.type(passwordBox(), margaret.password);
    await user.click(signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('too many attempts');
  });

  it('keeps redirect_url and RelayState from the address for after sign-in', async () => {
    await renderLogin(
      `/login?redirect_url=${encodeURIComponent(btoa('/account/bills-and-payments'))}&RelayState=%2Faccount%2Fdashboard`,
    );
    expect(sessionStorage.getItem('redirect_url')).toBe(btoa('/account/bills-and-payments'));
    expect(sessionStorage.getItem('RelayState')).toBe('/account/dashboard');
  });

  it('renders the content experiment variant, blocks and links', async () => {
    await renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: page.heading })).toBeInTheDocument();
    expect(screen.getByText(/Use the email address and password you chose/)).toBeInTheDocument();
    // The words the emails use ("choose "Forgotten your password?" on the sign-in page").
    expect(screen.getByRole('link', { name: 'Forgotten your password?' })).toHaveAttribute(
      'href',
      '/forgotten-password',
    );
  });
});
