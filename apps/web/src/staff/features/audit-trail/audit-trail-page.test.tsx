import { staffAuditTrailCall } from '@portal/contracts/staff';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { CSRF, renderConsole, staffOf } from '../../testing/console';

const entry = (n: number, overrides: Record<string, unknown> = {}) => ({
  at: new Date(Date.UTC(2026, 11, 7, 15, 0) - n * 60_000).toISOString(),
  eventId: n === 0 ? 'staff.customers.unlock' : 'auth.signin',
  source: 'server',
  isSuccess: n % 2 === 0,
  failureReason: n % 2 === 0 ? null : 'WRONG_PASSWORD',
  onBehalfOf: n === 0 ? 'staff:stand-in-agent' : null,
  details: n === 0 ? { reason: 'CALL-0042' } : {},
  ...overrides,
});

describe("a customer's audit trail", () => {
  it('shows an auditor the entries, newest first, read only, and pages on with the cursor', async () => {
    fakeApi.use(
      fakeCall(staffAuditTrailCall, ({ body }) => ({
        status: 200,
        body: body.cursor
          ? { customerId: 'C1000001', name: 'Mrs Margaret Thompson', entries: [entry(2)], nextCursor: null }
          : {
              customerId: 'C1000001',
              name: 'Mrs Margaret Thompson',
              entries: [entry(0), entry(1)],
              nextCursor: 'cursor-2',
            },
      })),
    );
    const { user } = renderConsole('/customers/C1000001/audit-trail', {
      who: staffOf.auditor,
      state: { reason: 'AUDIT-12' },
    });
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Audit trail of Mrs Margaret Thompson',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    const [first] = callsTo(staffAuditTrailCall);
    expect(first?.body).toEqual({ reason: 'AUDIT-12' });
    expect(first?.headers.get('X-CSRF-Token')).toBe(CSRF);

    const table = screen.getByRole('table', { name: 'What was recorded about this customer' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('7 December 2026 at 3:00pm');
    expect(rows[0]).toHaveTextContent('staff.customers.unlock');
    expect(rows[0]).toHaveTextContent('Succeeded');
    expect(rows[0]).toHaveTextContent('staff:stand-in-agent');
    expect(rows[0]).toHaveTextContent('reason: CALL-0042');
    expect(rows[1]).toHaveTextContent('Failed: WRONG_PASSWORD');
    expect(rows[1]).toHaveTextContent('The customer');
    // Read only: nothing to do but read on.
    expect(screen.queryByRole('region', { name: 'Help this customer' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(callsTo(staffAuditTrailCall)[1]?.body).toEqual({ reason: 'AUDIT-12', cursor: 'cursor-2' });
    const added = within(table).getAllByRole('row')[3];
    expect(added).toHaveFocus();
    expect(screen.getByText('1 more entries shown')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(screen.getByText('There are no older entries.')).toBeVisible();
  });

  it('is not for an agent', async () => {
    renderConsole('/customers/C1000001/audit-trail', { who: staffOf.agent, state: { reason: 'X-1' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'You cannot see this page' })).toBeVisible();
    expect(callsTo(staffAuditTrailCall)).toHaveLength(0);
  });

  it('asks an auditor for the reason when opened without one', async () => {
    renderConsole('/customers/C1000001/audit-trail', { who: staffOf.auditor });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Why are you reading this audit trail?' }),
    ).toBeVisible();
    expect(document.title).toBe('Why are you reading this audit trail? – Staff console – Meridian Mutual');
  });
});
