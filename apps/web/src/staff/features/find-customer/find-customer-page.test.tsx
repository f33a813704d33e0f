import { staffSearchCall, staffSignOutCall } from '@portal/contracts/staff';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { CSRF, renderConsole, staffOf } from '../../testing/console';

const margaretFound = {
  customerId: 'C1000001',
  name: 'Mrs Margaret Thompson',
  postcodeStart: 'HR8 2',
  onlineAccount: 'active' as const,
};

async function findForm() {
  return screen.findByRole('heading', { level: 1, name: 'Find a customer' });
}

describe('the console start', () => {
  it('sends a browser without a staff session to sign in, to come back to the page it asked for', async () => {
    const { left } = renderConsole('/customers/C1000001', { who: null });
    await waitFor(() =>
      expect(left).toEqual([`/staff/sign-in?returnTo=${encodeURIComponent('/staff/customers/C1000001')}`]),
    );
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });

  it('shows who is signed in with their roles, and signs out with the CSRF token', async () => {
    fakeApi.use(fakeCall(staffSignOutCall, () => ({ status: 204, body: undefined })));
    const { user } = renderConsole('/', { who: staffOf.senior });
    await findForm();
    const header = screen.getByRole('banner');
    expect(header).toHaveTextContent('Priya Shah');
    expect(header).toHaveTextContent('Agent, Senior agent');
    expect(document.title).toBe('Find a customer – Staff console – Meridian Mutual');

    await user.click(within(header).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You have signed out' })).toBeInTheDocument();
    expect(callsTo(staffSignOutCall)[0]?.headers.get('X-CSRF-Token')).toBe(CSRF);
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/staff/sign-in');
    expect(screen.queryByText('Priya Shah')).toBeNull();
  });

  it('says so when the sign-out could not be made, and stays signed in', async () => {
    fakeApi.use(fakeCall(staffSignOutCall, () => ({ status: 503 })));
    const { user } = renderConsole('/');
    await findForm();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(
      await screen.findByText('We could not sign you out just now. Please try again.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('Alex Morgan');
  });
});

describe('find a customer', () => {
  it('checks the form when it is sent: an error summary linked to each field, nothing sent', async () => {
    const { user } = renderConsole('/');
    await findForm();
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const summary = await screen.findByRole('alert');
    expect(summary).toHaveFocus();
    expect(within(summary).getByRole('link', { name: 'Choose how to find the customer' })).toHaveAttribute(
      'href',
      '#search-by',
    );
    expect(
      within(summary).getByRole('link', { name: 'Enter the reason: a ticket or call reference' }),
    ).toBeInTheDocument();
    // Each field's message is part of its description.
    const reason = screen.getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(/Enter the reason: a ticket or call reference/);

    // A link in the summary moves focus to its field.
    await user.click(within(summary).getByRole('link', { name: /Enter the reason/ }));
    expect(reason).toHaveFocus();

    await user.click(screen.getByRole('radio', { name: 'Policy number' }));
    await user.type(screen.getByRole('textbox', { name: 'Policy number' }), '12345');
    await user.type(reason, 'CA');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(
      await screen.findByRole('link', { name: 'Enter a policy number like 102X4567891' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Enter a reason of at least 3 characters' })).toBeInTheDocument();
    expect(callsTo(staffSearchCall)).toHaveLength(0);
  });

  it('searches by policy number with the reason and the CSRF token, and lists what it finds', async () => {
    fakeApi.use(fakeCall(staffSearchCall, () => ({ status: 200, body: { results: [margaretFound] } })));
    const { user, router } = renderConsole('/');
    await findForm();
    await user.click(screen.getByRole('radio', { name: 'Policy number' }));
    await user.type(screen.getByRole('textbox', { name: 'Policy number' }), ' 102x4567891 ');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'CALL-0042');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const heading = await screen.findByRole('heading', { level: 2, name: '1 customer found' });
    expect(heading).toHaveFocus();
    const [search] = callsTo(staffSearchCall);
    expect(search?.body).toEqual({
      reason: 'CALL-0042',
      query: { by: 'policyNumber', policyNumber: '102X4567891' },
    });
    expect(search?.headers.get('X-CSRF-Token')).toBe(CSRF);

    const result = screen.getByRole('listitem');
    expect(within(result).getByRole('heading', { level: 3 })).toHaveTextContent('Mrs Margaret Thompson');
    expect(result).toHaveTextContent('HR8 2');
    expect(result).toHaveTextContent('Registered');
    // An agent opens records; the audit trail is the auditors'.
    expect(within(result).queryByRole('link', { name: /Audit trail/ })).toBeNull();
    await user.click(within(result).getByRole('link', { name: 'Open record for Mrs Margaret Thompson' }));
    // The record's page is loaded when first opened.
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/customers/C1000001'));
    expect(router.state.location.state).toEqual({ reason: 'CALL-0042' });
  });

  it('searches by surname, date of birth and postcode, sent as the service takes them', async () => {
    fakeApi.use(fakeCall(staffSearchCall, () => ({ status: 200, body: { results: [] } })));
    const { user } = renderConsole('/');
    await findForm();
    await user.click(screen.getByRole('radio', { name: 'Surname, date of birth and postcode' }));
    await user.type(screen.getByRole('textbox', { name: 'Surname' }), 'Thompson');
    await user.type(screen.getByRole('textbox', { name: 'Date of birth' }), '14041952');
    await user.type(screen.getByRole('textbox', { name: 'Postcode' }), 'hr8  2ab');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'TICKET-7');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'No customer found' })).toHaveFocus();
    expect(screen.getByText(/Check the details with the caller/)).toBeInTheDocument();
    expect(callsTo(staffSearchCall)[0]?.body.query).toEqual({
      by: 'nameAndBirth',
      surname: 'Thompson',
      dateOfBirth: '1952-04-14',
      postcode: 'HR8 2AB',
    });
  });

  it('says how long to wait when the searches are too many (429)', async () => {
    fakeApi.use(
      fakeCall(staffSearchCall, () => ({
        status: 429,
        body: { code: 'RATE_LIMITED', message: 'Too many searches', correlationId: 'c-1' },
        headers: { 'Retry-After': '270' },
      })),
    );
    const { user } = renderConsole('/');
    await findForm();
    await user.click(screen.getByRole('radio', { name: 'Customer id' }));
    await user.type(screen.getByRole('textbox', { name: 'Customer id' }), 'c1000001');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'CALL-1');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const banner = await screen.findByRole('region', { name: 'There is a problem' });
    expect(banner).toHaveTextContent(
      'You have searched a lot in a short time. Wait 5 minutes before searching again.',
    );
    expect(banner).toHaveFocus();
    expect(callsTo(staffSearchCall)[0]?.body.query).toEqual({ by: 'customerId', customerId: 'C1000001' });
  });

  it('offers an auditor the audit trail, not the record', async () => {
    fakeApi.use(fakeCall(staffSearchCall, () => ({ status: 200, body: { results: [margaretFound] } })));
    const { user, router } = renderConsole('/', { who: staffOf.auditor });
    await findForm();
    await user.click(screen.getByRole('radio', { name: 'Email address' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Email address' }),
      'margaret.thompson@example.co.uk',
    );
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'AUDIT-2026-12');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('heading', { level: 2, name: '1 customer found' });
    expect(screen.queryByRole('link', { name: /Open record/ })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Audit trail for Mrs Margaret Thompson' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/customers/C1000001/audit-trail'));
    expect(router.state.location.state).toEqual({ reason: 'AUDIT-2026-12' });
  });

  it('sends the browser to sign in when a search finds the session ended (401)', async () => {
    fakeApi.use(fakeCall(staffSearchCall, () => ({ status: 401 })));
    const { user, left } = renderConsole('/');
    await findForm();
    await user.click(screen.getByRole('radio', { name: 'Customer id' }));
    await user.type(screen.getByRole('textbox', { name: 'Customer id' }), 'C1000001');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'CALL-1');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(left).toEqual([`/staff/sign-in?returnTo=${encodeURIComponent('/staff/')}`]));
  });
});
