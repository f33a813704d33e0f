import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@portal/contracts/call';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { bearer, clientToken, integrationEnv } from '../../../test/integration-client';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { createRunCustomer, eraseRunCustomers, type RunCustomer } from '../../../test/staff-customers';
import { staffConsole, staffOf, type StaffConsole } from '../../../test/staff-sign-in';
import { registeredRoutes, type RegisteredRoute } from '../../platform/route';

/*
 * Issue 41 point 2: every staff route (taken from the app's routes, so a new one cannot be missed) by
 * every kind of caller: none, a customer's token, an integration client's token, a staff session of each
 * role without the CSRF token on a write, and with it. Real ids: on the embedded database Margaret
 * (C1000001); on a shared PostgreSQL database a customer of the test's own, as the actions really run.
 * And the reverse: a staff session opens no customer route and no integration route.
 */

/** What each staff call answers a role it is for, with the CSRF token, on the customer used here. */
const allowedAnswer: Record<string, number> = {
  'staff.session': 200,
  'staff.sessionStatus': 200,
  'staff.signOut': 204,
  'staff.customers.search': 200,
  'staff.customers.open': 200,
  // Active, not locked, signed in nowhere, no authenticator app: the actions that do not apply.
  'staff.customers.resendActivation': 409,
  'staff.customers.unlock': 409,
  'staff.customers.endSessions': 409,
  'staff.customers.removeFactors': 409,
  'staff.customers.changeEmail': 200,
  'staff.customers.auditTrail': 200,
  // No code from the customer (codes are required by default): the view is not opened.
  'staff.customers.sharedView': 422,
  // Issue 42, on an item no other test changes, with bodies that change nothing: the service's own
  // answers (409 and 422 name no guard) where a write would publish.
  'staff.content.list': 200,
  'staff.content.get': 200,
  'staff.content.saveDraft': 409,
  'staff.content.discardDraft': 200,
  'staff.content.publish': 409,
  'staff.content.rollback': 422,
  'staff.content.preview': 200,
  'staff.operations.get': 200,
  'staff.operations.maintenance': 422,
  'staff.operations.serviceAlert': 422,
  'staff.operations.flag': 422,
  'staff.operations.deadLetters': 200,
  // No such dead letter: the call's own 404.
  'staff.operations.retryDeadLetter': 404,
  'staff.operations.discardDeadLetter': 404,
};

/** The content item the matrix calls on. */
const MATRIX_ITEM = 'modal-welcome-back-window-block';

const REASON = 'Matrix check 0001';

/** A valid body for each call, for `customerId`. */
function bodyOf(callId: string, customerId: string): object | undefined {
  switch (callId) {
    case 'staff.session':
    case 'staff.sessionStatus':
    case 'staff.signOut':
      return undefined;
    case 'staff.customers.search':
      return { reason: REASON, query: { by: 'customerId', customerId } };
    case 'staff.customers.removeFactors':
      return { reason: REASON, kinds: ['authenticator-app'], identityChecked: true };
    case 'staff.customers.changeEmail':
      return {
        reason: REASON,
        email: `matrix-${randomUUID().slice(0, 8)}@example.org`,
        identityChecked: true,
      };
    case 'staff.content.list':
    case 'staff.content.get':
    case 'staff.content.discardDraft':
    case 'staff.operations.get':
    case 'staff.operations.deadLetters':
      return undefined;
    case 'staff.content.saveDraft':
      return { body: {}, baseVersion: 999_999 };
    case 'staff.content.publish':
      return { baseVersion: 999_999 };
    case 'staff.content.rollback':
      return { version: 999_999 };
    case 'staff.content.preview':
      return { path: '/login' };
    case 'staff.operations.maintenance':
      return { on: true, endsAt: '2020-01-01T00:00:00Z', reason: REASON };
    case 'staff.operations.serviceAlert':
      return {
        visible: true,
        startsAt: '2031-01-01T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
        reason: REASON,
      };
    case 'staff.operations.flag':
      return { key: 'no-such-flag', reason: REASON };
    default:
      return { reason: REASON };
  }
}

describe.each(databases())('the staff routes by caller and role on $name', ({ name, open }) => {
  let t: TestContext;
  let target: string;
  let customer: SignedIn;
  let client: string;
  const made: RunCustomer[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { ...integrationEnv(), REDIS_KEY_PREFIX: `test-${randomUUID()}:` },
      { db: await open() },
    );
    if (name === 'pglite') target = 'C1000001';
    else {
      const own = await createRunCustomer(t);
      made.push(own);
      target = own.customerId;
    }
    customer = await signIn(t, 'james.carter@example.co.uk');
    client = await clientToken(t.app);
  });
  afterAll(async () => {
    await eraseRunCustomers(t, made);
    await t.close();
    await t.db.close();
  });

  /** The staff routes, signing out last (it ends the session the rest use). */
  const staffRoutes = (): RegisteredRoute[] =>
    registeredRoutes(t.app)
      .filter((r) => r.call?.staffRoles !== undefined)
      .sort((a, b) => Number(a.call!.id === 'staff.signOut') - Number(b.call!.id === 'staff.signOut'));

  const call = (route: RegisteredRoute, headers: Record<string, string>) => {
    const body = bodyOf(route.call!.id, target);
    return t.app.inject({
      method: route.method as 'GET',
      url: route.url
        .replace(':customerId', target)
        .replace(':itemId', MATRIX_ITEM)
        .replace(':id', '999999999'),
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
  };
  const answer = async (route: RegisteredRoute, headers: Record<string, string>) => {
    const res = await call(route, headers);
    return {
      route: `${route.method} ${route.url}`,
      status: res.statusCode,
      code: res.json<{ code?: string }>().code,
    };
  };

  it('covers every staff call of the contracts', () => {
    expect(
      staffRoutes()
        .map((r) => r.call!.id)
        .sort(),
    ).toEqual(Object.keys(allowedAnswer).sort());
  });

  it("refuses no credential, a customer's token and an integration client's token on every staff route (401)", async () => {
    const { jar, csrfToken } = await staffConsole(t.app, staffOf['senior-agent']);
    for (const route of staffRoutes()) {
      const credentials: Array<Record<string, string>> = [
        {},
        { authorization: customer.authorization },
        bearer(client),
        // A bearer token beside a live staff session and its CSRF token: still refused.
        { authorization: customer.authorization, cookie: jar.header(), 'x-csrf-token': csrfToken },
        { ...bearer(client), cookie: jar.header(), 'x-csrf-token': csrfToken },
      ];
      for (const headers of credentials) {
        const got = await answer(route, headers);
        expect(got).toEqual({ route: got.route, status: 401, code: 'STAFF_SESSION_REQUIRED' });
      }
    }
  });

  it.each(['agent', 'senior-agent', 'auditor', 'editor', 'publisher', 'operator'] as const)(
    'answers the %s role exactly as the contracts say: 403 for a write without the CSRF token, else by role',
    async (role: StaffRole) => {
      const staff: StaffConsole = await staffConsole(t.app, staffOf[role]);
      for (const route of staffRoutes()) {
        const allowed = staff.roles.some((r) => route.call!.staffRoles!.includes(r as StaffRole));
        const write = route.method !== 'GET';
        const withoutCsrf = await answer(route, { cookie: staff.jar.header() });
        if (write) {
          expect(withoutCsrf).toEqual({ route: withoutCsrf.route, status: 403, code: 'FORBIDDEN' });
        } else {
          expect(withoutCsrf.status).toBe(allowed ? allowedAnswer[route.call!.id] : 403);
        }
        const res = await call(route, { cookie: staff.jar.header(), 'x-csrf-token': staff.csrfToken });
        const expected = allowed ? allowedAnswer[route.call!.id] : 403;
        expect({ route: route.url, role, status: res.statusCode }, res.body).toEqual({
          route: route.url,
          role,
          status: expected,
        });
        if (!allowed)
          expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Your role does not allow this.' });
        // A 409 is the action's own answer, not a guard's.
        if (expected === 409)
          expect(res.json<{ code: string }>().code).not.toMatch(/FORBIDDEN|STAFF_SESSION/);
      }
      // Signed out at the end: the session opens nothing more.
      const after = await t.app.inject({
        method: 'GET',
        url: '/staff/api/session',
        headers: { cookie: staff.jar.header() },
      });
      expect(after.statusCode).toBe(401);
    },
  );

  it('refuses a staff session on every customer route and every integration route (401)', async () => {
    const { jar, csrfToken } = await staffConsole(t.app, staffOf['senior-agent']);
    const routes = registeredRoutes(t.app).filter(
      (r) => r.call?.auth === true || r.call?.clientScope !== undefined,
    );
    expect(routes.length).toBeGreaterThan(30);
    for (const r of routes) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url.replace(/:([A-Za-z]\w*)/g, (_, param: string) =>
          param === 'customerId' ? target : param === 'policyId' ? '102X4567891' : 'sample',
        ),
        // The cookie as a browser would send it were the paths to overlap, and the CSRF token too.
        headers: { cookie: jar.header(), 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
        ...(r.method === 'GET' ? {} : { payload: '{}' }),
      });
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      });
    }
  });
});
