import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { outbox } from '../../../test/identity-support';
import { endOtherSessions } from '../oidc/sign-in-sessions';
import { authorize, pkcePair, sessionTokenFor, tokenRequest, type Who } from '../../../test/oidc-support';

/*
 * "Where you're signed in" (issue 26 points 3 and 5, decision 025). Fiona (C1000012) is the demo customer
 * of these tests alone: they sign her in from several browsers and sign sessions out. On the shared
 * PostgreSQL test database her sessions and known browsers are cleared first. Two instances of the app
 * share the database and clock (and Redis when REDIS_URL is set), as behind a load balancer.
 */
const fiona: Who = {
  login: 'fiona.maclean@example.co.uk',
  password: 'RowanLodgeOban58',
  phone: '07700900888',
  factor: 'sms',
  customerId: 'C1000012',
};

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

interface Browser {
  authorization: string;
  refreshToken: string;
}

const DAY_MS = 24 * 60 * 60_000;

const redisEnv = (): Record<string, string> =>
  process.env.REDIS_URL
    ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `test-${randomUUID()}:` }
    : {};

describe.each(databases())('where you are signed in, on $name', ({ open }) => {
  let t: TestContext;
  /** A second instance on the same database and clock. */
  let b: TestContext;
  let sub: string;
  let margaret: SignedIn;

  /** Signs Fiona in from a browser: its user agent and address reach the provider's authorize step. */
  const signInFrom = async (userAgent: string, remoteAddress = '127.0.0.1'): Promise<Browser> => {
    // Her code sends are limited to 10 an hour: the clock moves on between sign-ins.
    t.clock.advance(7 * 60_000);
    const sessionToken = await sessionTokenFor(t.app, fiona);
    const { verifier, challenge } = pkcePair();
    const { callback } = await authorize(
      t,
      { sessionToken, prompt: 'none', code_challenge: challenge, code_challenge_method: 'S256' },
      undefined,
      { userAgent, remoteAddress },
    );
    const res = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: `${t.config.publicUrl}/login/callback`,
    });
    expect(res.statusCode).toBe(200);
    const tokens = res.json<{ access_token: string; refresh_token: string }>();
    return { authorization: `Bearer ${tokens.access_token}`, refreshToken: tokens.refresh_token };
  };

  const call = (
    app: FastifyInstance,
    whose: { authorization: string },
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
  ) =>
    app.inject({
      method,
      url,
      headers: { authorization: whose.authorization },
      ...(method === 'POST' ? { payload: {} } : {}),
    });
  const base = `/api/v1/sign-in-sessions/${fiona.customerId}`;
  const list = async (whose: Browser, app = t.app) => {
    const res = await call(app, whose, 'GET', base);
    expect(res.statusCode).toBe(200);
    return res.json<{
      sessions: Array<{
        id: string;
        browser: string | null;
        os: string | null;
        network: string | null;
        signedInAt: string;
        lastUsedAt: string;
        thisDevice: boolean;
      }>;
    }>().sessions;
  };
  const audits = async () =>
    (
      await t.db.query<{ details: { scope: string; count: number } }>(
        `SELECT details FROM audit_event WHERE event_id = 'session.ended' AND customer_id = $1
          AND id > $2 ORDER BY id`,
        [fiona.customerId, auditsBefore],
      )
    ).rows.map((r) => r.details);
  /** The audit trail's last id before these tests (the shared PostgreSQL database keeps earlier runs'). */
  let auditsBefore: string;
  const lastAuditId = async () =>
    (await t.db.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM audit_event')).rows[0]!
      .id;

  beforeAll(async () => {
    // Access tokens for an hour: the clock moves on between sign-ins.
    const env = { OIDC_ACCESS_TOKEN_TTL: '3600', ...redisEnv() };
    t = await createTestApp(env, { db: await open() });
    b = await createTestApp(env, { db: t.db, clock: t.clock });
    auditsBefore = await lastAuditId();
    sub = (
      await t.db.query<{ id: string }>('SELECT id FROM identity_user WHERE customer_id = $1', [
        fiona.customerId,
      ])
    ).rows[0]!.id;
    // The shared PostgreSQL test database keeps earlier runs' sessions and browsers: start afresh.
    await endOtherSessions(t.db, sub, null);
    await t.db.query('DELETE FROM portal_known_browser WHERE customer_id = $1', [fiona.customerId]);
    await t.db.query('DELETE FROM outbox_message WHERE recipient = $1', [fiona.login]);
    margaret = await signIn(t, 'margaret.thompson@example.co.uk');
  });
  afterAll(async () => {
    await endOtherSessions(t.db, sub, null);
    await b.close();
    await t.close();
    await t.db.close();
  });

  let chrome: Browser;
  let iphone: Browser;

  it('lists each session: browser and system, when signed in and last used, masked network, this device', async () => {
    chrome = await signInFrom(CHROME_WINDOWS, '81.2.69.160');
    const chromeSignedIn = t.clock.now().toISOString();
    iphone = await signInFrom(SAFARI_IPHONE, '2001:db8:85a3::8a2e:370:7334');

    const seen = await list(chrome);
    expect(seen).toHaveLength(2);
    expect(seen.find((s) => s.thisDevice)).toMatchObject({
      browser: 'Chrome',
      os: 'Windows',
      network: '81.2.69.xxx',
      signedInAt: chromeSignedIn,
    });
    expect(seen.find((s) => !s.thisDevice)).toMatchObject({
      browser: 'Safari',
      os: 'iOS',
      network: '2001:db8:85a3:xxxx:xxxx:xxxx:xxxx:xxxx',
    });
    // The other instance answers the same, the other browser marked as this device there.
    const fromIphone = await list(iphone, b.app);
    expect(fromIphone.find((s) => s.thisDevice)?.browser).toBe('Safari');
    expect(fromIphone.map((s) => s.id).sort()).toEqual(seen.map((s) => s.id).sort());

    // Another customer sees only their own, and Fiona's list is not theirs to read.
    expect((await call(t.app, margaret, 'GET', base)).statusCode).toBe(404);
    const margarets = await call(t.app, margaret, 'GET', `/api/v1/sign-in-sessions/${margaret.customerId}`);
    expect(margarets.statusCode).toBe(200);
    const theirIds = margarets.json<{ sessions: Array<{ id: string }> }>().sessions.map((s) => s.id);
    expect(theirIds.some((id) => seen.some((s) => s.id === id))).toBe(false);
  });

  it('moves "last used" on at most once a minute', async () => {
    const before = (await list(iphone)).find((s) => s.thisDevice)!.lastUsedAt;
    t.clock.advance(30_000);
    expect((await list(iphone)).find((s) => s.thisDevice)!.lastUsedAt).toBe(before);
    t.clock.advance(31_000);
    const moved = (await list(iphone)).find((s) => s.thisDevice)!.lastUsedAt;
    expect(moved).toBe(t.clock.now().toISOString());
  });

  it("refuses a malformed id (400), an unknown one and another customer's (404), changing nothing", async () => {
    const ids = (await list(chrome)).map((s) => s.id);
    expect((await call(t.app, chrome, 'DELETE', `${base}/not-a-session`)).statusCode).toBe(400);
    expect((await call(t.app, chrome, 'DELETE', `${base}/${randomUUID()}`)).statusCode).toBe(404);
    // Margaret names Fiona's session under her own customer id, and under Fiona's.
    for (const url of [`/api/v1/sign-in-sessions/${margaret.customerId}/${ids[0]}`, `${base}/${ids[0]}`]) {
      const refused = await call(t.app, margaret, 'DELETE', url);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // ...and Fiona names one of Margaret's.
    const margarets = (
      await call(t.app, margaret, 'GET', `/api/v1/sign-in-sessions/${margaret.customerId}`)
    ).json<{ sessions: Array<{ id: string }> }>().sessions;
    expect((await call(t.app, chrome, 'DELETE', `${base}/${margarets[0]!.id}`)).statusCode).toBe(404);
    expect(
      (await call(t.app, margaret, 'GET', `/api/v1/sign-in-sessions/${margaret.customerId}`)).statusCode,
    ).toBe(200);
    expect((await list(chrome)).map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(await audits()).toEqual([]);
  });

  it('signs one session out: its tokens are refused on both instances within a second', async () => {
    const other = (await list(chrome)).find((s) => !s.thisDevice)!;
    // Both instances have just seen the iPhone's token as good.
    expect((await call(b.app, iphone, 'GET', base)).statusCode).toBe(200);
    const ended = await call(t.app, chrome, 'DELETE', `${base}/${other.id}`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ended: 1 });

    t.clock.advance(1000);
    for (const app of [t.app, b.app]) {
      const refused = await call(app, iphone, 'GET', base);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toContain('The sign-in session has ended');
    }
    const refresh = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: iphone.refreshToken,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const left = await list(chrome);
    expect(left.map((s) => s.thisDevice)).toEqual([true]);
    // Gone is gone: a second sign-out of it is a 404.
    expect((await call(t.app, chrome, 'DELETE', `${base}/${other.id}`)).statusCode).toBe(404);
    expect(await audits()).toEqual([{ scope: 'one', count: 1 }]);
  });

  it('signs every other session out, this one staying signed in', async () => {
    const firefox = await signInFrom(FIREFOX_LINUX);
    const again = await signInFrom(SAFARI_IPHONE);
    expect(await list(chrome)).toHaveLength(3);
    expect((await call(b.app, firefox, 'GET', base)).statusCode).toBe(200);

    const ended = await call(t.app, chrome, 'POST', `${base}/sign-out-others`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ended: 2 });
    t.clock.advance(1000);
    for (const browser of [firefox, again]) {
      for (const app of [t.app, b.app]) expect((await call(app, browser, 'GET', base)).statusCode).toBe(401);
      const refresh = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: browser.refreshToken,
      });
      expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    }
    expect((await list(chrome, b.app)).map((s) => s.thisDevice)).toEqual([true]);
    const refreshed = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: chrome.refreshToken,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(await audits()).toEqual([
      { scope: 'one', count: 1 },
      { scope: 'others', count: 2 },
    ]);
    // Nobody else is left to sign out.
    expect((await call(t.app, chrome, 'POST', `${base}/sign-out-others`)).json()).toEqual({ ended: 0 });
  });

  it('emails a sign-in from a browser not seen on the account for 90 days, and only then', async () => {
    await t.db.query('DELETE FROM portal_known_browser WHERE customer_id = $1', [fiona.customerId]);
    const from = await lastAuditId();
    const newDeviceEmails = async () =>
      (await outbox(t.app, fiona.login)).filter((m) => m.kind === 'security-new-device');
    const before = (await newDeviceEmails()).length;

    // Nothing to compare the account's first recorded sign-in with (as after registering): no email.
    await signInFrom(FIREFOX_LINUX);
    expect(await newDeviceEmails()).toHaveLength(before);

    // A browser the account has not used: an email saying when, which browser, which network.
    await signInFrom(EDGE_WINDOWS, '81.2.69.200');
    const emails = await newDeviceEmails();
    expect(emails).toHaveLength(before + 1);
    expect(emails[0]!.body).toContain('Browser: Microsoft Edge on Windows');
    expect(emails[0]!.body).toContain('Network: 81.2.69.xxx');
    expect(emails[0]!.body).toContain('(UK time)');
    expect(emails[0]!.body).toContain('Change your password and sign out of every other device');
    expect(emails[0]!.body).toContain(`${t.config.publicUrl}/profile/login-security`);
    const audit = await t.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_event WHERE event_id = 'identity.signin.new_device' AND customer_id = $1
        AND id > $2`,
      [fiona.customerId, from],
    );
    expect(audit.rows.map((r) => r.details)).toEqual([
      { browser: 'Microsoft Edge', os: 'Windows', network: '81.2.69.xxx' },
    ]);

    // Known browsers within 90 days: no email.
    await signInFrom(FIREFOX_LINUX);
    t.clock.advance(89 * DAY_MS);
    await signInFrom(EDGE_WINDOWS);
    expect(await newDeviceEmails()).toHaveLength(before + 1);

    // Firefox was last used 89 days and some minutes ago; 91 days after, it is news again.
    t.clock.advance(2 * DAY_MS);
    await signInFrom(FIREFOX_LINUX);
    const later = await newDeviceEmails();
    expect(later).toHaveLength(before + 2);
    expect(later[0]!.body).toContain('Browser: Firefox on Linux');
  });
});
