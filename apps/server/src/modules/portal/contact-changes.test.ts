import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoCustomers } from '../../db/demo/customers';
import type { Db } from '../../platform/db';
import { hashPassword } from '../../platform/password-hash';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { findUserByCustomerId, insertUser, syncFactors } from '../identity/identity.repository';
import { factorsForNumbers } from '../identity/identity.service';
import { newId } from '../identity/secrets';
import { latestCode, latestLinkToken, outbox, post, tx } from '../../../test/identity-support';
import { tokenRequest } from '../../../test/oidc-support';

/*
 * Issue 26 points 1, 2 and 6 (decision 026). Brenda (C1000013) changes her email address and mobile
 * number; Alan (C1000014, a landline only) adds a mobile and closes his online account. Nobody else signs
 * in as them. Each test starts from them as the demo data has them (a shared PostgreSQL test database
 * keeps what an earlier test or run changed), an hour later than the last, so the hourly send limits
 * start afresh, and with a sign-in of its own (a recent one: the step-up check passes).
 */
const brenda = demoCustomers.find((c) => c.customerId === 'C1000013')!;
const alan = demoCustomers.find((c) => c.customerId === 'C1000014')!;
const BRENDA_NEW_EMAIL = 'brenda.a.new@example.co.uk';
const BRENDA_NEW_MOBILE = '07700900998';
const ALAN_NEW_MOBILE = '07700900913';

/** Puts the customer's record and sign-in back as the demo data has them. */
async function restore(db: Db, customerId: string, now: Date) {
  const demo = demoCustomers.find((c) => c.customerId === customerId)!;
  const hash = await hashPassword(demo.registered!.password);
  await db.query('UPDATE customer SET email = $2, mobile_number = $3 WHERE customer_id = $1', [
    customerId,
    demo.email,
    demo.mobileNumber,
  ]);
  await db.transaction(async (q) => {
    await q.query(`DELETE FROM identity_user WHERE login = $1 AND customer_id <> $2`, [
      BRENDA_NEW_EMAIL,
      customerId,
    ]);
    let user = await findUserByCustomerId(q, customerId);
    if (!user) {
      await insertUser(q, {
        id: newId('00u'),
        customerId,
        login: demo.email!,
        status: 'ACTIVE',
        firstName: demo.firstName,
        lastName: demo.lastName,
        passwordHash: hash,
        now,
      });
      user = (await findUserByCustomerId(q, customerId))!;
    }
    await q.query(
      // Registered long ago, as the seed has the demo accounts (no passkey offer is due).
      `UPDATE identity_user SET login = $2, status = 'ACTIVE', password_hash = $3, failed_attempts = 0,
         locked_until = NULL, activated_at = $4, created_at = $4 WHERE id = $1`,
      [user.id, demo.email, hash, new Date(now.getTime() - 400 * 86_400_000)],
    );
    await q.query('DELETE FROM identity_contact_change WHERE user_id = $1', [user.id]);
    await syncFactors(q, user.id, factorsForNumbers([demo.mobileNumber, demo.landlineNumber]), now);
  });
}

describe.each(databases())('changing contact details and closing the online account on $name', ({ open }) => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp({ OIDC_ACCESS_TOKEN_TTL: '3600' }, { db: await open() });
  });
  afterAll(async () => {
    for (const c of [brenda, alan]) await restore(t.db, c.customerId, t.clock.now());
    await t.close();
    await t.db.close();
  });
  beforeEach(async () => {
    t.clock.advance(61 * 60_000);
    for (const c of [brenda, alan]) await restore(t.db, c.customerId, t.clock.now());
  });

  const call = (who: SignedIn | null, url: string, payload: object = {}, customerId = who?.customerId) =>
    t.app.inject({
      method: 'POST',
      url: url.replace(':customerId', customerId ?? 'C1000013'),
      payload,
      headers: who ? { authorization: who.authorization } : {},
    });
  const startEmail = (who: SignedIn, emailAddress: string, confirmEmailAddress = emailAddress) =>
    call(who, '/api/v1/contact-details/:customerId/email', { emailAddress, confirmEmailAddress });
  const confirmEmail = (who: SignedIn, passCode: string) =>
    call(who, '/api/v1/contact-details/:customerId/email/confirm', { passCode });
  const startMobile = (who: SignedIn, mobileNumber: string) =>
    call(who, '/api/v1/contact-details/:customerId/mobile', { mobileNumber });
  const confirmMobile = (who: SignedIn, passCode: string) =>
    call(who, '/api/v1/contact-details/:customerId/mobile/confirm', { passCode });
  const primaryAuth = (username: string, password: string) =>
    post(t.app, '/api/v1/authn', { username, password });
  /** The 6 digits of the newest code emailed to `to`. */
  const emailedCode = async (to: string) => {
    const [message] = await outbox(t.app, to);
    expect(message?.kind).toBe('email-change-code');
    return /\b(\d{6})\b/.exec(message!.body)![1]!;
  };
  const record = async (customerId: string) =>
    (
      await t.db.query<{ email: string | null; mobile_number: string | null }>(
        'SELECT email, mobile_number FROM customer WHERE customer_id = $1',
        [customerId],
      )
    ).rows[0]!;
  const login = async (customerId: string) =>
    (
      await t.db.query<{ login: string; failed_attempts: number }>(
        'SELECT login, failed_attempts FROM identity_user WHERE customer_id = $1',
        [customerId],
      )
    ).rows[0];
  const factors = async (customerId: string) =>
    (
      await t.db.query<{ factor_type: string; phone_number: string }>(
        `SELECT f.factor_type, f.phone_number FROM identity_factor f JOIN identity_user u ON u.id = f.user_id
          WHERE u.customer_id = $1 ORDER BY f.factor_type, f.phone_number`,
        [customerId],
      )
    ).rows.map((f) => `${f.factor_type}:${f.phone_number}`);
  /** Where the audit trail and the change events stand now: a shared database holds earlier runs' rows. */
  const mark = async () =>
    (
      await t.db.query<{ audit: string; events: string }>(
        `SELECT (SELECT coalesce(max(id), 0) FROM audit_event)::text AS audit,
                (SELECT coalesce(max(id), 0) FROM integration_event)::text AS events`,
      )
    ).rows[0]!;
  const auditSince = async (customerId: string, since: { audit: string }) =>
    (
      await t.db.query<{ event_id: string; details: Record<string, unknown> | null }>(
        `SELECT event_id, details FROM audit_event WHERE customer_id = $1 AND id > $2 ORDER BY id`,
        [customerId, since.audit],
      )
    ).rows;

  it('changes the email with a code sent to the new address: the sign-in and the record move, the old address is told', async () => {
    const who = await signIn(t, brenda.email!);
    const since = await mark();
    const sent = await startEmail(who, ` ${BRENDA_NEW_EMAIL.toUpperCase()} `, BRENDA_NEW_EMAIL);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      sent: true,
      codeLength: 6,
      expiresAt: new Date(t.clock.now().getTime() + 5 * 60_000).toISOString(),
    });
    const code = await emailedCode(BRENDA_NEW_EMAIL);
    // Nothing changes until the code comes back.
    expect((await login(brenda.customerId))!.login).toBe(brenda.email);

    const confirmed = await confirmEmail(who, code);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ emailAddress: BRENDA_NEW_EMAIL });
    expect((await login(brenda.customerId))!.login).toBe(BRENDA_NEW_EMAIL);
    expect((await record(brenda.customerId)).email).toBe(BRENDA_NEW_EMAIL);
    expect((await primaryAuth(BRENDA_NEW_EMAIL, brenda.registered!.password)).statusCode).toBe(200);
    expect((await primaryAuth(brenda.email!, brenda.registered!.password)).statusCode).toBe(401);
    // The code works once.
    expect((await confirmEmail(who, code)).statusCode).toBe(400);

    const [notice] = await outbox(t.app, brenda.email!);
    expect(notice!.kind).toBe('email-changed');
    expect(notice!.body).toContain('If it was not you');
    expect(notice!.body).toContain('b***@example.co.uk');
    expect(notice!.body).not.toContain(BRENDA_NEW_EMAIL);

    const audit = await auditSince(brenda.customerId, since);
    const ids = audit.map((a) => a.event_id);
    expect(ids).toContain('profile.email.code.sent');
    expect(ids).toContain('profile.email.changed');
    // Masked addresses only.
    expect(JSON.stringify(audit)).not.toContain('brenda.a.new');
    expect(JSON.stringify(audit)).not.toContain('brenda.ashworth');
    expect(audit.find((a) => a.event_id === 'profile.email.changed')!.details).toEqual({
      from: 'b***@example.co.uk',
      to: 'b***@example.co.uk',
    });
    const events = await t.db.query<{ type: string }>(
      `SELECT type FROM integration_event WHERE customer_id = $1 AND id > $2`,
      [brenda.customerId, since.events],
    );
    expect(events.rows.map((e) => e.type)).toEqual(['customer.email.changed']);
  });

  it('refuses an address that is not valid, not typed the same twice or the current one: 400, nothing sent or changed', async () => {
    const who = await signIn(t, brenda.email!);
    const emailsBefore = (await outbox(t.app, BRENDA_NEW_EMAIL)).length;
    const mismatch = await startEmail(who, BRENDA_NEW_EMAIL, 'brenda.w.nwe@example.co.uk');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fieldErrors).toHaveProperty('confirmEmailAddress');
    const invalid = await startEmail(who, 'brenda.a.new@', 'brenda.a.new@');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fieldErrors).toHaveProperty('emailAddress');
    const same = await startEmail(who, brenda.email!.toUpperCase());
    expect(same.statusCode).toBe(400);
    expect(same.json().fieldErrors).toHaveProperty('emailAddress');
    for (const body of [
      {},
      { emailAddress: BRENDA_NEW_EMAIL },
      { ...{ emailAddress: 1 }, confirmEmailAddress: 1 },
    ]) {
      expect((await call(who, '/api/v1/contact-details/:customerId/email', body)).statusCode).toBe(400);
    }
    expect((await confirmEmail(who, '')).statusCode).toBe(400);
    expect((await startMobile(who, '01632960111')).statusCode).toBe(400);
    expect((await startMobile(who, 'not a number')).json().fieldErrors).toHaveProperty('mobileNumber');
    expect((await startMobile(who, brenda.mobileNumber!)).statusCode).toBe(400);
    expect(await outbox(t.app, BRENDA_NEW_EMAIL)).toHaveLength(emailsBefore);
    expect((await login(brenda.customerId))!.login).toBe(brenda.email);
    expect(await record(brenda.customerId)).toEqual({
      email: brenda.email,
      mobile_number: brenda.mobileNumber,
    });

    // Another customer's id answers 404, and no token 401; both change nothing.
    const other = await startEmail({ ...who, customerId: alan.customerId }, BRENDA_NEW_EMAIL);
    expect(other.statusCode).toBe(404);
    expect(
      (await call(null, '/api/v1/contact-details/:customerId/mobile', { mobileNumber: BRENDA_NEW_MOBILE }))
        .statusCode,
    ).toBe(401);
    expect(
      (await call(who, '/api/v1/online-account/:customerId/close', { passCode: '123456' }, alan.customerId))
        .statusCode,
    ).toBe(404);
    expect((await login(alan.customerId))!.login).toBe(alan.email);

    // Ten minutes after signing in, a change asks for the password again.
    t.clock.advance(11 * 60_000);
    const stale = await startEmail(who, BRENDA_NEW_EMAIL);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('REAUTHENTICATION_REQUIRED');
    const confirmedPassword = await call(who, '/api/v1/sign-in-methods/:customerId/confirm-password', {
      password: brenda.registered!.password,
    });
    expect(confirmedPassword.statusCode).toBe(200);
    expect((await startEmail(who, BRENDA_NEW_EMAIL)).statusCode).toBe(200);
  });

  it('answers the same for an address another account uses: that address gets a notice, no code, and no code confirms it', async () => {
    const who = await signIn(t, brenda.email!);
    const margaret = 'margaret.thompson@example.co.uk';
    // What reaches her from now on (the outbox answers the newest 50: a long-lived database has more).
    const newest = (await outbox(t.app, margaret))[0]?.id ?? 0;
    const started = performance.now();
    const taken = await startEmail(who, margaret.toUpperCase(), margaret);
    const takenMs = performance.now() - started;
    t.clock.advance(31_000);
    const started2 = performance.now();
    const free = await startEmail(who, BRENDA_NEW_EMAIL);
    const freeMs = performance.now() - started2;
    expect(taken.statusCode).toBe(free.statusCode);
    expect(Object.keys(taken.json())).toEqual(Object.keys(free.json()));
    expect(taken.json()).toMatchObject({ sent: true, codeLength: 6 });
    // Both at least the padded minimum; neither waits on the other's work.
    expect(takenMs).toBeGreaterThanOrEqual(140);
    expect(freeMs).toBeGreaterThanOrEqual(140);

    // This flow's messages only: on a shared PostgreSQL database other files' apps may email her meanwhile
    // (a document notice, a new-device email).
    const toMargaret = (await outbox(t.app, margaret)).filter(
      (m) => m.id > newest && m.kind.startsWith('email-change'),
    );
    expect(toMargaret).toHaveLength(1);
    expect(toMargaret[0]!.kind).toBe('email-change-address-in-use');
    expect(toMargaret[0]!.body).not.toMatch(/\b\d{6}\b/);

    // A second request for the taken address: any code is a wrong code, counted like one.
    t.clock.advance(31_000);
    expect((await startEmail(who, margaret)).statusCode).toBe(200);
    const refused = await confirmEmail(who, '123456');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('MFA_CODE_INVALID');
    expect((await login(brenda.customerId))!.failed_attempts).toBe(1);
    expect((await login(brenda.customerId))!.login).toBe(brenda.email);
    expect((await login('C1000001'))!.login).toBe(margaret);
    expect((await record('C1000001')).email).toBe(margaret);
  });

  it('refuses wrong and expired codes with 400, counting them towards the lockout, changing nothing', async () => {
    const who = await signIn(t, brenda.email!);
    expect((await startMobile(who, '+44 7700 900998')).statusCode).toBe(200);
    const code = await latestCode(t.app, BRENDA_NEW_MOBILE);
    const wrong = await confirmMobile(who, code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'MFA_CODE_INVALID',
      message: expect.stringContaining('not right'),
    });
    expect((await confirmMobile(who, '12ab')).statusCode).toBe(400);
    expect((await login(brenda.customerId))!.failed_attempts).toBe(2);
    t.clock.advance(5 * 60_000);
    const expired = await confirmMobile(who, code);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toContain('expired');
    expect(await factors(brenda.customerId)).toEqual(
      [`call:${brenda.landlineNumber}`, `call:${brenda.mobileNumber}`, `sms:${brenda.mobileNumber}`].sort(),
    );
    expect((await record(brenda.customerId)).mobile_number).toBe(brenda.mobileNumber);

    // Five wrong codes kill it: the right one no longer works either.
    t.clock.advance(31_000);
    expect((await startMobile(who, BRENDA_NEW_MOBILE)).statusCode).toBe(200);
    const fresh = await latestCode(t.app, BRENDA_NEW_MOBILE);
    for (let i = 0; i < 5; i++) await confirmMobile(who, fresh === '000000' ? '111111' : '000000');
    expect((await confirmMobile(who, fresh)).statusCode).toBe(400);
    expect((await record(brenda.customerId)).mobile_number).toBe(brenda.mobileNumber);
  });

  it('changes the mobile with a code texted to it: the text factor moves, the old number is told by text', async () => {
    const who = await signIn(t, brenda.email!);
    const since = await mark();
    expect((await startMobile(who, '07700 900998')).json()).toMatchObject({ sent: true, codeLength: 6 });
    // Too soon for another: 429 with Retry-After.
    const soon = await startMobile(who, BRENDA_NEW_MOBILE);
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    const confirmed = await confirmMobile(who, await latestCode(t.app, BRENDA_NEW_MOBILE));
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ mobileNumber: BRENDA_NEW_MOBILE });
    expect((await record(brenda.customerId)).mobile_number).toBe(BRENDA_NEW_MOBILE);
    expect(await factors(brenda.customerId)).toEqual(
      [`call:${brenda.landlineNumber}`, `call:${BRENDA_NEW_MOBILE}`, `sms:${BRENDA_NEW_MOBILE}`].sort(),
    );
    const [told] = await outbox(t.app, brenda.mobileNumber!);
    expect(told!.kind).toBe('mobile-changed');
    expect(told!.body).toMatch(
      /^Your mobile number on your Meridian Mutual account was changed on \d{1,2} \w+ \d{4}/,
    );
    expect(told!.body).toContain('If this was not you, call us');
    const audit = await auditSince(brenda.customerId, since);
    expect(audit.find((a) => a.event_id === 'profile.mobile.changed')!.details).toEqual({
      from: '***999',
      to: '***998',
      added: false,
    });

    // The next sign-in's text goes to the new number.
    const next = await primaryAuth(brenda.email!, brenda.registered!.password);
    const sms =
      tx(next).status === 'MFA_REQUIRED'
        ? (next.json()._embedded.factors as Array<{ id: string; factorType: string }>).find(
            (f) => f.factorType === 'sms',
          )!
        : null;
    const challenge = await post(t.app, `/api/v1/authn/factors/${sms!.id}/verify`, {
      stateToken: next.json().stateToken,
    });
    expect(challenge.statusCode).toBe(200);
    expect((await outbox(t.app, BRENDA_NEW_MOBILE))[0]!.kind).toBe('mfa-code');
  });

  it('lets a customer with a landline only add a mobile the same way: the text factor is created', async () => {
    const who = await signIn(t, alan.email!);
    expect(await factors(alan.customerId)).toEqual([`call:${alan.landlineNumber}`]);
    expect((await startMobile(who, ALAN_NEW_MOBILE)).statusCode).toBe(200);
    const confirmed = await confirmMobile(who, await latestCode(t.app, ALAN_NEW_MOBILE));
    expect(confirmed.statusCode).toBe(200);
    expect(await factors(alan.customerId)).toEqual(
      [`call:${alan.landlineNumber}`, `call:${ALAN_NEW_MOBILE}`, `sms:${ALAN_NEW_MOBILE}`].sort(),
    );
    expect((await record(alan.customerId)).mobile_number).toBe(ALAN_NEW_MOBILE);
    expect((await outbox(t.app, alan.email!))[0]!.kind).toBe('mobile-added');
    // Brenda's are untouched.
    expect((await record(brenda.customerId)).mobile_number).toBe(brenda.mobileNumber);
  });

  it('closes the online account with a code: the sign-in goes, the records and audit trail stay, and the customer can register again', async () => {
    const who = await signIn(t, alan.email!);
    const since = await mark();
    const close = (passCode: string) => call(who, '/api/v1/online-account/:customerId/close', { passCode });
    expect((await call(who, '/api/v1/mfa/:customerId/call')).statusCode).toBe(200);
    const code = await latestCode(t.app, alan.landlineNumber!);
    const wrong = await close(code === '00000' ? '11111' : '00000');
    expect(wrong.statusCode).toBe(400);
    expect((await login(alan.customerId))!.login).toBe(alan.email);

    const closed = await close(code);
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toEqual({ closed: true });

    // The sign-in is gone, and this session's tokens with it: refused within a second on every instance.
    expect(await login(alan.customerId)).toBeUndefined();
    t.clock.advance(1000);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/v1/profile/${alan.customerId}`,
      headers: { authorization: who.authorization },
    });
    expect(profile.statusCode).toBe(401);
    const refreshed = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: who.refreshToken });
    expect(refreshed.statusCode).toBe(400);
    const grants = await t.db.query(
      `SELECT 1 FROM oidc_payload WHERE model IN ('Grant', 'Session') AND payload->>'accountId' NOT IN (SELECT id FROM identity_user)
         AND payload->>'accountId' LIKE '00u%' AND (expires_at IS NULL OR expires_at > now() - interval '1 day')
         AND payload::text LIKE $1`,
      [`%${alan.customerId}%`],
    );
    expect(grants.rowCount).toBe(0);
    // Signing in answers as for an unknown account.
    const unknown = await primaryAuth('nobody.at.all@example.co.uk', alan.registered!.password);
    const gone = await primaryAuth(alan.email!, alan.registered!.password);
    expect(gone.statusCode).toBe(unknown.statusCode);
    expect(gone.json().errorCode).toBe(unknown.json().errorCode);

    // The customer record, policy, documents and audit trail stay.
    expect((await record(alan.customerId)).email).toBe(alan.email);
    const policies = await t.db.query('SELECT 1 FROM policy WHERE customer_id = $1', [alan.customerId]);
    expect(policies.rowCount).toBe(1);
    const audit = await auditSince(alan.customerId, since);
    expect(audit.map((a) => a.event_id)).toContain('account.closed');
    expect(
      (
        await t.db.query('SELECT 1 FROM audit_event WHERE customer_id = $1 AND id <= $2', [
          alan.customerId,
          since.audit,
        ])
      ).rowCount,
    ).toBeGreaterThan(0);
    const [confirmation] = await outbox(t.app, alan.email!);
    expect(confirmation!.kind).toBe('account-closed');
    expect(confirmation!.body).toContain('policies and documents are not affected');

    // Registering again with the same details works: a new activation link, a new password, signed in.
    const registered = await post(
      t.app,
      '/Registration',
      { emailAddress: alan.email, dateOfBirth: alan.dateOfBirth, postCode: alan.postCode },
      { 'x-forwarded-for': '192.0.2.77' },
    );
    expect(registered.json()).toEqual({ status: 'OK' });
    const token = await latestLinkToken(t.app, alan.email!, 'activation');
    const activation = tx(await post(t.app, '/api/v1/authn', { token }));
    expect(activation.status).toBe('PASSWORD_RESET');
    if (activation.status !== 'PASSWORD_RESET') return;
    const mfa = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', {
        stateToken: activation.stateToken,
        newPassword: 'Wybunbury-Orchard-Again-7',
      }),
    );
    expect(mfa.status).toBe('MFA_REQUIRED');
    if (mfa.status !== 'MFA_REQUIRED') return;
    const voice = mfa._embedded.factors.find((f) => f.factorType === 'call')!;
    await post(t.app, `/api/v1/authn/factors/${voice.id}/verify`, { stateToken: activation.stateToken });
    const done = tx(
      await post(t.app, `/api/v1/authn/factors/${voice.id}/verify`, {
        stateToken: activation.stateToken,
        passCode: await latestCode(t.app, alan.landlineNumber!),
      }),
    );
    expect(done.status).toBe('SUCCESS');
    const complete = await post(t.app, '/api/v1/registration/complete', {
      oktaUserId: activation._embedded.user.id,
      stateToken: activation.stateToken,
    });
    expect(complete.json()).toEqual({ status: 'COMPLETED' });
    expect((await primaryAuth(alan.email!, 'Wybunbury-Orchard-Again-7')).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After when the mail server or the text gateway fails, and nothing changes', async () => {
    const who = await signIn(t, brenda.email!);
    // A second instance on the same database whose mail server and text gateway do not answer.
    const broken = await createTestApp(
      {
        OIDC_ACCESS_TOKEN_TTL: '3600',
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'portal@example.org',
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: 'http://127.0.0.1:9/send',
      },
      { db: t.db, clock: t.clock },
    );
    try {
      const inject = (url: string, payload: object) =>
        broken.app.inject({
          method: 'POST',
          url: url.replace(':customerId', brenda.customerId),
          payload,
          headers: { authorization: who.authorization },
        });
      const email = await inject('/api/v1/contact-details/:customerId/email', {
        emailAddress: BRENDA_NEW_EMAIL,
        confirmEmailAddress: BRENDA_NEW_EMAIL,
      });
      expect(email.statusCode).toBe(503);
      expect(email.headers['retry-after']).toBe('30');
      const mobile = await inject('/api/v1/contact-details/:customerId/mobile', {
        mobileNumber: BRENDA_NEW_MOBILE,
      });
      expect(mobile.statusCode).toBe(503);
      expect(mobile.headers['retry-after']).toBe('30');
      // The change that could not be sent is dead: no code can confirm it.
      const confirm = await inject('/api/v1/contact-details/:customerId/mobile/confirm', {
        passCode: '123456',
      });
      expect(confirm.statusCode).toBe(400);
    } finally {
      await broken.close();
    }
    expect((await login(brenda.customerId))!.login).toBe(brenda.email);
    expect(await record(brenda.customerId)).toEqual({
      email: brenda.email,
      mobile_number: brenda.mobileNumber,
    });
  });
});
