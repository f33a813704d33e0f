import { pageContent, type PageOf } from '@portal/contracts/content';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { requestPasswordResetCall } from '@portal/contracts/registration';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import resetContent from '../../../../../content/pages/forgotten-password.json';
import { renderAuthPage } from '../../session/testing/render-auth-page';
import { setPageInit } from '../../lib/page-init';
import { callsTo, fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { registrationScenario } from '../../test/fake-api/registration-scenario';
import ResetPasswordPage from './reset-password-page';

const page = pageContent.parse(resetContent) as PageOf<'ResetPasswordPage'>;

let cleanupNavigator: (() => void) | undefined;
async function renderReset(path = '/forgotten-password') {
  const rendered = await renderAuthPage(<ResetPasswordPage page={page} />, path);
  cleanupNavigator = rendered.unregister;
  return rendered;
}

beforeEach(() => registrationScenario());
afterEach(() => {
  cleanupNavigator?.();
  setPageInit(undefined);
});

const emailBox = () => screen.getByRole('textbox', { name: 'Email address' });
const sendButton = () => screen.getByRole('button', { name: 'Send reset link' });

describe('ResetPasswordPage', () => {
  it('accepts an empty field without an error, but sends nothing until the address is valid', async () => {
    const user = userEvent.setup();
    await renderReset();
    expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
    await user.click(emailBox());
    await user.tab();
    expect(emailBox()).not.toHaveAccessibleDescription(/correct format/);
    await user.click(sendButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Enter an email address in the correct format',
    );
    // The one error pattern: the summary links to the field, and the field says it beside it.
    expect(
      screen.getByRole('link', {
        name: 'Enter an email address in the correct format, like name@example.com',
      }),
    ).toHaveAttribute('href', '#reset-email');
    expect(emailBox()).toHaveAccessibleDescription(/^Error: Enter an email address in the correct format/);

    await user.type(emailBox(), 'margaret.thompson@');
    await user.tab();
    expect(emailBox()).toHaveAccessibleDescription(/Enter an email address in the correct format/);
    expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
    await user.click(sendButton());
    expect(callsTo(requestPasswordResetCall)).toHaveLength(0);
  });

  it('asks for a reset link and always shows the same confirmation', async () => {
    const user = userEvent.setup();
    const { location } = await renderReset();
    await user.type(emailBox(), ' margaret.thompson@example.co.uk ');
    expect(sendButton()).not.toHaveAttribute('aria-disabled');
    await user.click(sendButton());
    await waitFor(() => expect(location().pathname).toBe('/forgotten-password/check-your-email'));
    expect(callsTo(requestPasswordResetCall)[0]!.body).toEqual({
      email: 'margaret.thompson@example.co.uk',
    });
    await waitFor(() =>
      expect(callsTo(postAuditEventCall).map((c) => c.body)).toContainEqual(
        expect.objectContaining({ eventId: 'PasswordResetRequest', isSuccess: true }),
      ),
    );
  });

  it('says so when the link cannot be sent, and when there have been too many requests', async () => {
    fakeApi.use(fakeCall(requestPasswordResetCall, () => ({ status: 500 })));
    const user = userEvent.setup();
    const { location } = await renderReset();
    await user.type(emailBox(), 'margaret.thompson@example.co.uk');
    await user.click(sendButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('we could not send the email at the moment');
    expect(location().pathname).toBe('/forgotten-password');

    fakeApi.use(
      fakeCall(requestPasswordResetCall, () => ({
        status: 429,
        body: { code: 'TOO_MANY_REQUESTS', message: 'Slow down', correlationId: 'test-correlation' },
      })),
    );
    await user.click(sendButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('too many attempts'));
  });

  it('opened from an expired or used link, says so and sends a new link', async () => {
    const user = userEvent.setup();
    const { location } = await renderReset('/forgotten-password?warning=bad-token');
    const banner = screen.getByRole('region', { name: 'Important' });
    expect(banner).toHaveTextContent('The link you used has expired or has already been used');
    expect(banner).toHaveTextContent('we will send you a new link');
    expect(banner).not.toHaveTextContent(/register/i);
    await user.type(emailBox(), 'margaret.thompson@example.co.uk');
    await user.click(sendButton());
    await waitFor(() => expect(location().pathname).toBe('/forgotten-password/check-your-email'));
    expect(callsTo(requestPasswordResetCall)).toHaveLength(1);
  });

  it('shows no expired-link message when opened normally', async () => {
    await renderReset();
    expect(screen.queryByText(/has expired or has already been used/)).not.toBeInTheDocument();
  });
});
