import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { tokenRequest } from '../../../test/oidc-support';

/*
 * Step-up before a sign-in method changes (issue 25): setting up an app, creating backup codes and removing
 * a method need a sign-in of this session, or its password confirmed, within ten minutes. Reading the
 * methods needs only the token. Access tokens live ten minutes too, so the test refreshes (same grant).
 */
const MARGARET = 'margaret.thompson@example.co.uk';
const PASSWORD = 'BluebellCottage1952';
const MINUTE = 60_000;

describe('re-authentication before a sign-in method changes', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  /** A new access token of the same sign-in (grant), as the SPA's renewal gets. */
  async function refreshed(session: SignedIn): Promise<SignedIn> {
    const res = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: session.refreshToken });
    expect(res.statusCode).toBe(200);
    const tokens = res.json<{ access_token: string; refresh_token: string }>();
    return {
      ...session,
      accessToken: tokens.access_token,
      authorization: `Bearer ${tokens.access_token}`,
      refreshToken: tokens.refresh_token,
    };
  }

  const call = (session: SignedIn, method: 'GET' | 'POST' | 'DELETE', path = '', payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/sign-in-methods/${session.customerId}${path}`,
      headers: { authorization: session.authorization },
      ...(payload ? { payload } : {}),
    });

  it('lets a fresh sign-in change methods, asks an older one for the password, and keeps it to that session', async () => {
    let a = await signIn(t, MARGARET);
    let b = await signIn(t, MARGARET);

    // Just signed in: no password needed.
    const app = await call(a, 'POST', '/totp');
    expect(app.statusCode).toBe(200);

    t.clock.advance(11 * MINUTE);
    a = await refreshed(a);
    b = await refreshed(b);

    for (const [method, path] of [
      ['POST', '/totp'],
      ['POST', '/backup-codes'],
      ['POST', '/passkeys/options'],
      ['DELETE', `/${app.json<{ id: string }>().id}`],
    ] as const) {
      const refused = await call(a, method, path);
      expect(refused.statusCode, `${method} ${path}`).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
    }
    // Reading is not a change.
    expect((await call(a, 'GET')).statusCode).toBe(200);

    const wrong = await call(a, 'POST', '/confirm-password', { password: 'NotMyPassword1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'PASSWORD_INVALID' });
    expect((await call(a, 'POST', '/backup-codes')).statusCode).toBe(403);

    const confirmed = await call(a, 'POST', '/confirm-password', { password: PASSWORD });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({
      confirmedUntil: new Date(t.clock.now().getTime() + 10 * MINUTE).toISOString(),
    });
    expect((await call(a, 'POST', '/backup-codes')).statusCode).toBe(200);
    // The other session of the same customer has confirmed nothing.
    expect((await call(b, 'POST', '/backup-codes')).statusCode).toBe(403);

    // Ten minutes later the confirmation has lapsed.
    t.clock.advance(10 * MINUTE + 1000);
    a = await refreshed(a);
    expect((await call(a, 'POST', '/backup-codes')).statusCode).toBe(403);

    // Both outcomes are in the audit trail, never the password.
    const audit = await t.db.query<{ is_success: boolean; details: unknown }>(
      `SELECT is_success, details FROM audit_event WHERE event_id = 'profile.password.confirmed' ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.is_success)).toEqual([false, true]);
    expect(JSON.stringify(audit.rows)).not.toContain(PASSWORD);
  });

  it('refuses bad input with 400, another customer with 404, and a sixth try in 15 minutes with 429', async () => {
    const me = await signIn(t, MARGARET);
    expect((await call(me, 'POST', '/confirm-password', {})).statusCode).toBe(400);
    expect((await call(me, 'POST', '/confirm-password', { password: '' })).statusCode).toBe(400);
    expect((await call(me, 'POST', '/confirm-password', { password: 'x'.repeat(201) })).statusCode).toBe(400);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sign-in-methods/C1000002/confirm-password',
      headers: { authorization: me.authorization },
      payload: { password: PASSWORD },
    });
    expect(other.statusCode).toBe(404);

    for (let i = 0; i < 5; i++) {
      expect(
        (await call(me, 'POST', '/confirm-password', { password: `Wrong${i}Password` })).statusCode,
      ).toBe(400);
    }
    const limited = await call(me, 'POST', '/confirm-password', { password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
