import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { staffOf, staffSignIn } from '../../../test/staff-sign-in';

/*
 * Issue 41 point 1: staff sign in through the workforce provider (here the stand-in, with a code from
 * the outbox) into a server-side session: HttpOnly, SameSite=Strict on /staff, 15 minutes idle, 8 hours
 * at most, CSRF on writes. Customers' tokens are refused on staff routes and staff sessions on customers'.
 */

describe('staff sign-in and session', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function start(env: Record<string, string> = {}) {
    const t: TestContext = await createTestApp(env);
    cleanups.push(() => t.close());
    return t;
  }
  const session = (t: TestContext, cookie: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/staff/api/session', headers: { cookie, ...headers } });

  it('signs an agent in with a second factor: a Strict, HttpOnly session on /staff with their role', async () => {
    const t = await start();
    const { jar, callback } = await staffSignIn(t.app, staffOf.agent, { returnTo: '/staff/customers' });
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/staff/customers');
    const cookie = [callback.headers['set-cookie']].flat().find((c) => String(c).startsWith('portal_staff='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/staff(;|$)/);
    expect(cookie).toMatch(/Max-Age=28800/);

    const me = await session(t, jar.header());
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.json()).toMatchObject({
      name: 'Alex Morgan',
      email: 'alex.morgan@staff.example.co.uk',
      roles: ['agent'],
      csrfToken: expect.stringMatching(/^[\w-]{32}$/),
      idleExpiresAt: new Date(t.clock.now().getTime() + 15 * 60_000).toISOString(),
      expiresAt: new Date(t.clock.now().getTime() + 8 * 3_600_000).toISOString(),
    });

    // Audited: who signed in, with which roles; the provider's tokens are nowhere.
    const { rows } = await t.db.query<{ details: Record<string, unknown>; on_behalf_of: string }>(
      `SELECT details, on_behalf_of FROM audit_event WHERE event_id = 'staff.signin' AND is_success ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({
      on_behalf_of: 'staff:stand-in-agent',
      details: { subject: 'stand-in-agent', name: 'Alex Morgan', roles: ['agent'] },
    });
  });

  it('maps each demo staff member to their role', async () => {
    const t = await start();
    for (const [role, who] of Object.entries(staffOf)) {
      const { jar } = await staffSignIn(t.app, who);
      const roles = (await session(t, jar.header())).json<{ roles: string[] }>().roles;
      expect(roles).toEqual(role === 'senior-agent' ? ['agent', 'senior-agent'] : [role]);
    }
  });

  it('ends after 15 minutes without a call, and 8 hours after sign-in whatever is done', async () => {
    const t = await start();
    const { jar } = await staffSignIn(t.app, staffOf.agent);
    t.clock.advance(14 * 60_000);
    expect((await session(t, jar.header())).statusCode).toBe(200);
    t.clock.advance(14 * 60_000);
    expect((await session(t, jar.header())).statusCode).toBe(200);
    t.clock.advance(15 * 60_000 + 1);
    const idle = await session(t, jar.header());
    expect(idle.statusCode).toBe(401);
    expect(idle.json()).toMatchObject({ code: 'STAFF_SESSION_REQUIRED' });

    const again = await staffSignIn(t.app, staffOf.agent);
    for (let minutes = 0; minutes < 8 * 60 - 10; minutes += 10) {
      t.clock.advance(10 * 60_000);
      expect((await session(t, again.jar.header())).statusCode).toBe(200);
    }
    t.clock.advance(10 * 60_000);
    expect((await session(t, again.jar.header())).statusCode).toBe(401);
  });

  it('answers its status without restarting the idle time: the console’s own checks keep no session alive', async () => {
    const t = await start();
    const { jar } = await staffSignIn(t.app, staffOf.agent);
    const status = () =>
      t.app.inject({ method: 'GET', url: '/staff/api/session/status', headers: { cookie: jar.header() } });
    t.clock.advance(10 * 60_000);
    const first = await status();
    expect(first.statusCode).toBe(200);
    // Still 5 minutes left of the 15 counted from sign-in: the check did not move it.
    expect(first.json<{ idleExpiresAt: string }>().idleExpiresAt).toBe(
      new Date(t.clock.now().getTime() + 5 * 60_000).toISOString(),
    );
    t.clock.advance(5 * 60_000 + 1);
    expect((await status()).statusCode).toBe(401);
    expect((await session(t, jar.header())).statusCode).toBe(401);
  });

  it('signs out only with the CSRF token from this origin; the session is then gone', async () => {
    const t = await start();
    const { jar } = await staffSignIn(t.app, staffOf.auditor);
    const { csrfToken } = (await session(t, jar.header())).json<{ csrfToken: string }>();
    const signOut = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/staff/api/sign-out',
        headers: { cookie: jar.header(), ...headers },
      });
    expect((await signOut({})).statusCode).toBe(403);
    expect((await signOut({ 'x-csrf-token': 'wrong' })).statusCode).toBe(403);
    expect((await signOut({ 'x-csrf-token': csrfToken, origin: 'https://evil.example' })).statusCode).toBe(
      403,
    );
    const out = await signOut({ 'x-csrf-token': csrfToken, origin: t.config.publicUrl });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^portal_staff=; Max-Age=0/);
    expect((await session(t, jar.header())).statusCode).toBe(401);
  });

  it('refuses a sign-in without a second factor, a callback this browser did not start, and a wrong code', async () => {
    const t = await start({ STAFF_MFA: 'acr:urn:insurer:phishing-resistant' });
    const { jar, callback } = await staffSignIn(t.app, staffOf.agent);
    expect(callback.statusCode).toBe(403);
    expect(callback.body).toContain('A second factor is needed');
    expect(jar.get('portal_staff')).toBeUndefined();

    const stray = await t.app.inject({ method: 'GET', url: '/staff/callback?code=x&state=y' });
    expect(stray.statusCode).toBe(400);

    const u = await start();
    await expect(staffSignIn(u.app, staffOf.agent, { code: () => '000000' })).rejects.toThrow();
  });

  it('refuses a staff member with no role in the console', async () => {
    const t = await start({ STAFF_ROLE_GROUPS: JSON.stringify({ agent: ['someone-else'] }) });
    const { callback } = await staffSignIn(t.app, staffOf.agent);
    expect(callback.statusCode).toBe(403);
    expect(callback.body).toContain('You do not have access to the staff console');
  });

  it('never takes a customer token as a staff credential, nor a staff session as a customer’s', async () => {
    const t = await start();
    const { jar } = await staffSignIn(t.app, staffOf['senior-agent']);
    const margaret: SignedIn = await signIn(t, 'margaret.thompson@example.co.uk');
    expect((await session(t, '', { authorization: margaret.authorization })).statusCode).toBe(401);
    // A bearer token alongside a live staff session is refused too: one credential per kind of route.
    expect((await session(t, jar.header(), { authorization: margaret.authorization })).statusCode).toBe(401);
    const customerCall = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/user',
      headers: { cookie: jar.header() },
    });
    expect(customerCall.statusCode).toBe(401);
  });

  it('needs the console’s client at a workforce provider that is named', () => {
    expect(() => loadConfig({ STAFF_OIDC_ISSUER: 'https://login.example.com/tenant/v2.0' })).toThrow(
      /^Invalid configuration: STAFF_OIDC_CLIENT_ID/,
    );
    expect(() => loadConfig({ STAFF_ROLE_GROUPS: '{"agent": "not a list"}' })).toThrow(/STAFF_ROLE_GROUPS/);
    expect(() => loadConfig({ STAFF_MFA: 'sometimes' })).toThrow(ConfigError);
    const config = loadConfig({
      STAFF_OIDC_ISSUER: 'https://login.example.com/tenant/v2.0',
      STAFF_OIDC_CLIENT_ID: 'console',
      STAFF_OIDC_CLIENT_SECRET: 'secret',
      STAFF_MFA: 'acr:http://schemas.openid.net/pape/policies/2007/06/multi-factor',
    });
    expect(config.staff.provider).toEqual({
      kind: 'issuer',
      issuer: 'https://login.example.com/tenant/v2.0',
      clientId: 'console',
      clientSecret: 'secret',
    });
    expect(config.staff.mfa).toEqual({
      claim: 'acr',
      values: ['http://schemas.openid.net/pape/policies/2007/06/multi-factor'],
    });
  });
});
