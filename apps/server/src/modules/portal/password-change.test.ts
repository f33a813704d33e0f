import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../platform/password-hash';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { latestCode, outbox } from '../identity/test-support';

/*
 * Anne is the demo customer whose password the tests change: nobody else signs in as her, so runs in
 * parallel (and a shared PostgreSQL test database) are not disturbed. Her password is put back afterwards.
 */
const anneMobile = '07700900444';
const annePassword = 'OldForgeWem1957';
const newPassword = 'HexhamAbbeyBells2026';

describe.each(databases())('password change from the profile on $name', ({ open }) => {
  let t: TestContext;
  let anne: SignedIn;
  let anneElsewhere: SignedIn;
  let margaret: SignedIn;
  let david: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    // A shared PostgreSQL test database keeps earlier runs' counters (on the same test clock): start afresh.
    await t.db.query(`DELETE FROM rate_counter_hit WHERE key LIKE 'password-change:%'`);
    anne = await signIn(t, 'anne.porter@example.co.uk');
    anneElsewhere = await signIn(t, 'anne.porter@example.co.uk');
    margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    david = await signIn(t, 'david.okafor@example.co.uk');
  });
  afterAll(async () => {
    // The shared PostgreSQL test database keeps her account between runs: back to the demo password.
    await t.db.query(
      `UPDATE identity_user SET password_hash = $1, failed_attempts = 0, locked_until = NULL WHERE customer_id = 'C1000008'`,
      [await hashPassword(annePassword)],
    );
    await t.close();
    await t.db.close();
  });

  const call = (who: SignedIn | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: who ? { authorization: who.authorization } : {} });
  const askCode = async (who: SignedIn, method: 'sms' | 'call' = 'sms') =>
    call(who, 'POST', `/api/v1/mfa/${who.customerId}/${method}`);
  const change = (who: SignedIn, body: object) =>
    call(who, 'POST', `/api/v1/password/${who.customerId}/change`, body);
  const grants = async (customerSub: string) =>
    (
      await t.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM oidc_payload WHERE model = 'Grant' AND payload->>'accountId' = $1`,
        [customerSub],
      )
    ).rows[0]!.n;

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

  it('answers errorCode 1 for a wrong code, 2 for a wrong current password, 3 for a new one the rules refuse, 4 for bad input', async () => {
    await askCode(anne);
    const code = await latestCode(t.app, anneMobile);
    const wrongCode = await change(anne, {
      mfaPassCode: '000000',
      currentPassword: annePassword,
      newPassword,
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toMatchObject({ errorCode: 1, code: 'MFA_CODE_INVALID' });

    const wrongCurrent = await change(anne, {
      mfaPassCode: code,
      currentPassword: 'NotMyPassword1',
      newPassword,
    });
    expect(wrongCurrent.json()).toMatchObject({ errorCode: 2 });

    t.clock.advance(31_000);
    await askCode(anne);
    const tooShort = await change(anne, {
      mfaPassCode: await latestCode(t.app, anneMobile),
      currentPassword: annePassword,
      newPassword: 'short',
    });
    expect(tooShort.json()).toMatchObject({ errorCode: 3 });

    for (const body of [{}, { mfaPassCode: '12', currentPassword: 'x', newPassword: 'y' }, { extra: 1 }]) {
      const bad = await change(anne, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ errorCode: 4, correlationId: expect.any(String) });
    }
    expect((await call(margaret, 'POST', `/api/v1/password/${anne.customerId}/change`, {})).statusCode).toBe(
      404,
    );
  });

  it('changes the password once for one code, even asked twice at once; ends the other sessions, emails and audits', async () => {
    t.clock.advance(31_000);
    const sub = (
      await t.db.query<{ id: string }>(`SELECT id FROM identity_user WHERE customer_id = $1`, [
        anne.customerId,
      ])
    ).rows[0]!.id;
    expect(Number(await grants(sub))).toBeGreaterThanOrEqual(2);
    await askCode(anne);
    const code = await latestCode(t.app, anneMobile);
    const body = { mfaPassCode: code, currentPassword: annePassword, newPassword };
    // A shared PostgreSQL test database keeps earlier runs' audit rows: only this run's count.
    const since = (await t.db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
    const answers = await Promise.all([change(anne, body), change(anne, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const ok = answers.find((a) => a.statusCode === 200)!;
    expect(Date.parse(ok.json().passwordLastUpdated)).toBe(t.clock.now().getTime());

    // This session stays; the other sign-in's grant (and its refresh tokens) is gone.
    expect(await grants(sub)).toBe('1');
    const profile = (await call(anne, 'GET', `/api/v1/profile/${anne.customerId}`)).json();
    expect(profile.passwordLastUpdated).toBe(ok.json().passwordLastUpdated);
    void anneElsewhere;

    const [email] = await outbox(t.app, 'anne.porter@example.co.uk');
    expect(email!.kind).toBe('password-changed');
    const audit = await t.db.query<{ event_id: string }>(
      `SELECT event_id FROM audit_event WHERE customer_id = $1 AND event_id = 'profile.password.changed' AND occurred_at >= $2`,
      [anne.customerId, since],
    );
    expect(audit.rows).toHaveLength(1);
    const signInWithNew = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authn',
      payload: { username: 'anne.porter@example.co.uk', password: newPassword },
    });
    expect(signInWithNew.statusCode).toBe(200);
  });
});
