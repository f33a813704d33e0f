import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../platform/password-hash';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { latestCode, outbox } from '../../../test/identity-support';
import { signInTokens, tokenRequest, type Who } from '../../../test/oidc-support';

/*
 * Anne is the demo customer whose password the tests change: nobody else signs in as her, so runs in
 * parallel (and a shared PostgreSQL test database) are not disturbed. Her password is put back afterwards.
 * The tests run in order and share her: each change is the password the next sign-in uses. Her code sends
 * (10 an hour) and change attempts (5 in 15 minutes) are budgeted across them; the clock moves between.
 */
const anneEmail = 'anne.porter@example.co.uk';
const anneMobile = '07700900444';
const annePassword = 'OldForgeWem1957';
const CHANGE_WINDOW_MS = 15 * 60_000;

interface Session {
  customerId: string;
  authorization: string;
  refreshToken: string;
}

describe.each(databases())('password change from the profile on $name', ({ open }) => {
  let t: TestContext;
  /** The session that makes the changes; it must outlive each of them. */
  let anne: Session;
  /** Anne's password now. */
  let password = annePassword;
  let margaret: SignedIn;
  let david: SignedIn;

  const who = (): Who => ({
    login: anneEmail,
    password,
    phone: anneMobile,
    factor: 'sms',
    customerId: 'C1000008',
  });
  /** A sign-in of its own (a browser session), with its refresh token. */
  const session = async (): Promise<Session> => {
    const tokens = await signInTokens(t, who());
    return {
      customerId: who().customerId,
      authorization: `Bearer ${tokens.access_token}`,
      refreshToken: tokens.refresh_token,
    };
  };
  const resetAnne = async () =>
    t.db.query(
      `UPDATE identity_user SET password_hash = $1, failed_attempts = 0, locked_until = NULL WHERE customer_id = 'C1000008'`,
      [await hashPassword(annePassword)],
    );

  beforeAll(async () => {
    // Access tokens for an hour: the tests move the clock past the change window more than once.
    t = await createTestApp({ OIDC_ACCESS_TOKEN_TTL: '3600' }, { db: await open() });
    // A shared PostgreSQL test database keeps earlier runs' counters (on the same test clock): start afresh.
    await t.db.query(`DELETE FROM rate_counter_hit WHERE key LIKE 'password-change:%'`);
    // ...and Anne as the demo data has her, should an earlier run have stopped half-way.
    await resetAnne();
    anne = await session();
    margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    david = await signIn(t, 'david.okafor@example.co.uk');
  });
  afterAll(async () => {
    // The shared PostgreSQL test database keeps her account between runs: back to the demo password.
    await resetAnne();
    await t.close();
    await t.db.close();
  });

  const call = (
    whose: { authorization: string } | null,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: whose ? { authorization: whose.authorization } : {},
    });
  type Caller = { authorization: string; customerId: string };
  const askCode = async (whose: Caller, method: 'sms' | 'call' = 'sms') =>
    call(whose, 'POST', `/api/v1/mfa/${whose.customerId}/${method}`);
  const change = (whose: Caller, body: object) =>
    call(whose, 'POST', `/api/v1/password/${whose.customerId}/change`, body);
  /** A code by text for Anne, read from the dev outbox. */
  const freshCode = async () => {
    expect((await askCode(anne)).statusCode).toBe(200);
    return latestCode(t.app, anneMobile);
  };
  const primaryAuth = (pass: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/authn', payload: { username: anneEmail, password: pass } });
  const grants = async (customerSub: string) =>
    (
      await t.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM oidc_payload WHERE model = 'Grant' AND payload->>'accountId' = $1`,
        [customerSub],
      )
    ).rows[0]!.n;
  const dbNow = async () => (await t.db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;

  it('names the factors masked: the mobile by text, the landline by call, 404 without one', async () => {
    expect((await call(margaret, 'GET', `/api/v1/mfa/${margaret.customerId}/sms`)).json()).toEqual({
      displayName: 'Text message to +44 XXXX XXX123',
    });
    expect((await call(margaret, 'GET', `/api/v1/mfa/${margaret.customerId}/call`)).json()).toEqual({
      displayName: 'Phone call to +44 XXXX XXX456',
    });
    expect((await call(david, 'GET', `/api/v1/mfa/${david.customerId}/sms`)).statusCode).toBe(404);
    expect((await call(david, 'GET', `/api/v1/mfa/${margaret.customerId}/sms`)).statusCode).toBe(404);
    expect((await call(margaret, 'GET', `/api/v1/mfa/${margaret.customerId}/email`)).statusCode).toBe(400);
  });

  it('sends a code: 6 digits by text, 5 by a call to a landline', async () => {
    const text = await askCode(anne);
    expect(text.statusCode).toBe(200);
    expect(text.json()).toMatchObject({ sent: true, codeLength: 6 });
    t.clock.advance(31_000);
    const voice = await askCode(anne, 'call');
    expect(voice.json()).toMatchObject({ sent: true, codeLength: 5 });
    expect((await askCode(david)).statusCode).toBe(404);
    t.clock.advance(31_000);
  });

  it('answers errorCode 1 for a wrong code and 2 for a wrong current password, and the same code then works', async () => {
    const code = await freshCode();
    const next = 'HexhamAbbeyBells2026';
    const wrongCode = await change(anne, {
      mfaPassCode: code === '000000' ? '111111' : '000000',
      currentPassword: password,
      newPassword: next,
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toMatchObject({ errorCode: 1, code: 'MFA_CODE_INVALID' });

    const wrongCurrent = await change(anne, {
      mfaPassCode: code,
      currentPassword: 'NotMyPassword1',
      newPassword: next,
    });
    expect(wrongCurrent.statusCode).toBe(400);
    expect(wrongCurrent.json()).toMatchObject({ errorCode: 2, code: 'CURRENT_PASSWORD_INVALID' });
    // The wrong current password counted towards the lockout, as a wrong one at sign-in would.
    const failures = await t.db.query<{ failed_attempts: number }>(
      `SELECT failed_attempts FROM identity_user WHERE customer_id = $1`,
      [anne.customerId],
    );
    expect(failures.rows[0]!.failed_attempts).toBe(2);

    // The customer corrects the field and sends the same code again.
    const corrected = await change(anne, { mfaPassCode: code, currentPassword: password, newPassword: next });
    expect(corrected.statusCode).toBe(200);
    password = next;
    expect((await primaryAuth(next)).statusCode).toBe(200);
  });

  it('answers errorCode 3 for a new password the rules refuse, and the same code then works', async () => {
    t.clock.advance(CHANGE_WINDOW_MS + 60_000);
    const code = await freshCode();
    for (const [newPassword, reason] of [
      ['short', 'at least 12 characters'],
      [password, 'different from your current password'],
      ['qwertyuiop12345', 'too common'],
    ] as const) {
      const refused = await change(anne, { mfaPassCode: code, currentPassword: password, newPassword });
      expect(refused.statusCode, newPassword).toBe(400);
      expect(refused.json()).toMatchObject({ errorCode: 3, code: 'NEW_PASSWORD_INVALID' });
      expect(refused.json().message).toContain(reason);
    }
    const next = 'CorbridgeRomanFort1931';
    const corrected = await change(anne, { mfaPassCode: code, currentPassword: password, newPassword: next });
    expect(corrected.statusCode).toBe(200);
    password = next;
    expect((await primaryAuth(next)).statusCode).toBe(200);
  });

  it('answers errorCode 1 for a code of the wrong shape, 4 for other bad input, 404 for another customer', async () => {
    for (const mfaPassCode of ['12', 'abcdef', '12345a', '1234567', '']) {
      const bad = await change(anne, {
        mfaPassCode,
        currentPassword: password,
        newPassword: 'AlnwickCastle1309',
      });
      expect(bad.statusCode, mfaPassCode).toBe(400);
      expect(bad.json()).toMatchObject({
        errorCode: 1,
        code: 'MFA_CODE_INVALID',
        correlationId: expect.any(String),
      });
    }
    for (const body of [{}, { currentPassword: password, newPassword: 'AlnwickCastle1309' }, { extra: 1 }]) {
      const bad = await change(anne, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ errorCode: 4, correlationId: expect.any(String) });
    }
    expect((await call(margaret, 'POST', `/api/v1/password/${anne.customerId}/change`, {})).statusCode).toBe(
      404,
    );
    expect((await call(null, 'POST', `/api/v1/password/${anne.customerId}/change`, {})).statusCode).toBe(401);
  });

  it('allows 5 attempts in 15 minutes, then 429 with errorCode 4 and Retry-After until the window moves on', async () => {
    t.clock.advance(CHANGE_WINDOW_MS + 60_000);
    const body = { mfaPassCode: '000000', currentPassword: password, newPassword: 'BamburghDunes1999' };
    for (let i = 0; i < 5; i++) {
      const refused = await change(anne, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ errorCode: 1 });
    }
    const limited = await change(anne, body);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ errorCode: 4, code: 'PASSWORD_CHANGE_FAILED' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBe(CHANGE_WINDOW_MS / 1000);
    t.clock.advance(retryAfter * 1000 - 1000);
    expect((await change(anne, body)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await change(anne, body)).json()).toMatchObject({ errorCode: 1 });
  });

  it('same code redeemed twice at once changes the password once', async () => {
    t.clock.advance(31_000);
    const code = await freshCode();
    const next = 'HadriansWallWalk122';
    const body = { mfaPassCode: code, currentPassword: password, newPassword: next };
    // A shared PostgreSQL test database keeps earlier runs' audit rows: only this run's count.
    const since = await dbNow();
    const answers = await Promise.all([change(anne, body), change(anne, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const ok = answers.find((a) => a.statusCode === 200)!;
    const loser = answers.find((a) => a.statusCode === 400)!;
    expect(loser.json()).toMatchObject({ errorCode: 1, code: 'MFA_CODE_INVALID' });
    expect(Date.parse(ok.json().passwordLastUpdated)).toBe(t.clock.now().getTime());
    const old = password;
    password = next;

    const audit = await t.db.query<{ event_id: string }>(
      `SELECT event_id FROM audit_event WHERE customer_id = $1 AND event_id = 'profile.password.changed' AND occurred_at >= $2`,
      [anne.customerId, since],
    );
    expect(audit.rows).toHaveLength(1);
    expect((await primaryAuth(next)).statusCode).toBe(200);
    expect((await primaryAuth(old)).statusCode).toBe(401);
    const profile = (await call(anne, 'GET', `/api/v1/profile/${anne.customerId}`)).json();
    expect(profile.passwordLastUpdated).toBe(ok.json().passwordLastUpdated);
  });

  it("ends the customer's other sessions and their refresh tokens, keeps this one, and emails the customer", async () => {
    t.clock.advance(31_000);
    const anneElsewhere = await session();
    const sub = (
      await t.db.query<{ id: string }>(`SELECT id FROM identity_user WHERE customer_id = $1`, [
        anne.customerId,
      ])
    ).rows[0]!.id;
    expect(Number(await grants(sub))).toBe(2);
    // A second instance on the same database; both have just seen the other sign-in's token as good.
    const other = await createTestApp({}, { db: t.db, clock: t.clock });
    const profileOf = (app: FastifyInstance, whose: { authorization: string }) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/profile/${anne.customerId}`,
        headers: { authorization: whose.authorization },
      });
    expect((await profileOf(t.app, anneElsewhere)).statusCode).toBe(200);
    expect((await profileOf(other.app, anneElsewhere)).statusCode).toBe(200);

    const code = await freshCode();
    const next = 'LindisfarneCauseway1993';
    const changed = await change(anne, { mfaPassCode: code, currentPassword: password, newPassword: next });
    expect(changed.statusCode).toBe(200);
    password = next;

    // Within a second the other sign-in's access token, not yet expired, is refused on both instances.
    t.clock.advance(1000);
    for (const app of [t.app, other.app]) {
      const ended = await profileOf(app, anneElsewhere);
      expect(ended.statusCode).toBe(401);
      expect(ended.headers['www-authenticate']).toContain('The sign-in session has ended');
    }
    expect((await profileOf(other.app, anne)).statusCode).toBe(200);
    await other.close();

    // The other sign-in's refresh token is refused; this session's still gives tokens that work.
    const elsewhere = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: anneElsewhere.refreshToken,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await grants(sub)).toBe('1');
    const here = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: anne.refreshToken });
    expect(here.statusCode).toBe(200);
    const refreshed = { authorization: `Bearer ${here.json<{ access_token: string }>().access_token}` };
    expect((await call(refreshed, 'GET', `/api/v1/profile/${anne.customerId}`)).statusCode).toBe(200);
    expect((await call(anne, 'GET', `/api/v1/profile/${anne.customerId}`)).statusCode).toBe(200);

    const [email] = await outbox(t.app, anneEmail);
    expect(email!.kind).toBe('password-changed');
  });
});
