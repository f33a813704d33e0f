import type { StaffRole } from '@portal/contracts/call';
import { getStaffSessionCall, type StaffCustomerView, type StaffSession } from '@portal/contracts/staff';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { consoleRoutes, CONSOLE_BASENAME } from '../app/router';
import { forgetLastSearch } from '../features/find-customer/find-customer-page';
import { forgetSession, setLeaveForTests } from '../session/staff-session';

/*
 * The console's test kit: its routes in a memory router under /staff, the session call answered for a
 * staff member of the given roles, and where the console sends the browser to sign in recorded instead of
 * followed.
 */

export const CSRF = 'csrf-token-of-the-test-session';

export const staffOf: Record<'agent' | 'senior' | 'auditor', { name: string; roles: StaffRole[] }> = {
  agent: { name: 'Alex Morgan', roles: ['agent'] },
  senior: { name: 'Priya Shah', roles: ['agent', 'senior-agent'] },
  auditor: { name: 'Tom Ellis', roles: ['auditor'] },
};

export function sessionOf(
  who: { name: string; roles: StaffRole[] },
  { idleSeconds = 15 * 60, maxSeconds = 8 * 3600 } = {},
): StaffSession {
  const now = Date.now();
  return {
    name: who.name,
    email: `${who.name.toLowerCase().replace(' ', '.')}@staff.example.co.uk`,
    roles: who.roles,
    csrfToken: CSRF,
    idleExpiresAt: new Date(now + idleSeconds * 1000).toISOString(),
    expiresAt: new Date(now + maxSeconds * 1000).toISOString(),
    sharedViewCode: 'required',
  };
}

/**
 * Renders the console at `path` (under /staff), signed in as `who` (null: no session, the call answers
 * 401) or with `session`, with `state` as the history entry's (a reason). Returns the router, a user and the addresses the
 * console sent the browser to.
 */
export function renderConsole(
  path: string,
  {
    who = staffOf.agent,
    state,
    session,
    answerSession = true,
  }: {
    who?: { name: string; roles: StaffRole[] } | null;
    state?: unknown;
    session?: StaffSession;
    /** False: the test answers the session call itself. */
    answerSession?: boolean;
  } = {},
) {
  forgetSession();
  forgetLastSearch();
  const left: string[] = [];
  const restore = setLeaveForTests((url) => left.push(url));
  // The browser's own address: where "sign in again" comes back to.
  window.history.replaceState(null, '', `${CONSOLE_BASENAME}${path}`);
  if (answerSession) {
    fakeApi.use(
      fakeCall(getStaffSessionCall, () =>
        who ? { status: 200, body: session ?? sessionOf(who) } : { status: 401 },
      ),
    );
  }
  const router = createMemoryRouter(consoleRoutes, {
    basename: CONSOLE_BASENAME,
    initialEntries: [{ pathname: `${CONSOLE_BASENAME}${path}`, state }],
  });
  const user = userEvent.setup();
  const view = render(<RouterProvider router={router} />);
  return { router, user, left, restore, ...view };
}

/** Margaret, as the record shows her: registered and active, locked after wrong passwords, signed in once. */
export function margaret(overrides: Partial<StaffCustomerView> = {}): StaffCustomerView {
  return {
    customerId: 'C1000001',
    name: 'Mrs Margaret Thompson',
    dateOfBirth: '1952-04-14',
    postcode: 'HR8 2AB',
    email: 'margaret.thompson@example.co.uk',
    mobile: '07700 900123',
    landline: null,
    registration: { state: 'active', activationSentAt: null },
    signIn: {
      locked: true,
      lockedUntil: '2026-12-07T15:35:00.000Z',
      lastSignInAt: '2026-12-06T09:15:00.000Z',
      lastSignInDevice: 'Chrome on Windows',
    },
    factors: [
      { kind: 'text', destination: '+44 XXXX XXX123', count: 1, addedAt: '2025-01-10T10:00:00.000Z' },
      { kind: 'authenticator-app', count: 1, addedAt: '2025-02-01T10:00:00.000Z' },
      { kind: 'backup-codes', count: 10, addedAt: null },
    ],
    sessions: [
      {
        id: 'sess-1',
        browser: 'Safari on iPhone',
        signedInAt: '2026-12-06T09:15:00.000Z',
        lastActiveAt: null,
      },
    ],
    preferences: {
      paperless: true,
      marketing: { email: true, phone: false, post: null, online: true },
    },
    policies: [
      {
        policyNumber: '102X4567891',
        product: 'Home insurance',
        status: 'RenewalCustomerReady',
        renewalDate: '2027-03-01',
      },
    ],
    activity: [
      { at: '2026-12-07T15:05:00.000Z', kind: 'account-locked', until: '2026-12-07T15:35:00.000Z' },
      { at: '2026-12-07T15:04:00.000Z', kind: 'sign-in-wrong-password', browser: 'Chrome on Windows' },
    ],
    ...overrides,
  };
}
