import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import {
  comparableBody,
  comparableHeaders,
  latestCode,
  latestLinkToken,
  margaret,
  outbox,
  post,
  tx,
} from '../../../test/identity-support';

const eleanor = {
  customerId: 'C1000003',
  emailAddress: 'eleanor.hughes@example.co.uk',
  dateOfBirth: '1978-11-25',
  postCode: 'EX39 2QQ',
  mobile: '07700900456',
};
const priya = {
  customerId: 'C1000005',
  dateOfBirth: '1985-06-30',
  postCode: 'YO17 7BN',
  policyNumber: '507P87654321',
  mobile: '07700900789',
};
const robert = {
  customerId: 'C1000004',
  emailAddress: 'robert.williams@example.co.uk',
  dateOfBirth: '1949-02-08',
  postCode: 'SA20 0AA',
  landline: '01632960321',
};

describe('registration', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const register = (body: Record<string, unknown>, ip = '192.0.2.10') =>
    post(t.app, '/Registration', body, { 'x-forwarded-for': ip });

  const { customerId: _e, mobile: _m, ...eleanorDetails } = eleanor;

  it('answers OK and emails an activation link when the details and email match a customer', async () => {
    const res = await register({
      ...eleanorDetails,
      postCode: 'ex392qq',
      emailAddress: 'Eleanor.Hughes@example.co.uk',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    const [email] = await outbox(t.app, eleanor.emailAddress);
    expect(email).toMatchObject({
      channel: 'email',
      kind: 'activation',
      subject: 'Finish setting up your online account',
    });
    // By first name only: an email carries no other personal detail (issue 40 point 8).
    expect(email!.body).toMatch(/^Dear Eleanor,\n/);
    expect(email!.body).not.toContain('Hughes');
    expect(email!.body).toMatch(/http:\/\/localhost:3000\/register\/activate\?token=[\w-]{43}\b/);
    expect(email!.html).toContain('href="http://localhost:3000/register/activate?token=');
    const audit = await t.db.query(
      // The registration's own rows (the demo seed's loads of her records are audited too).
      `SELECT event_id, is_success FROM audit_event WHERE customer_id = $1 AND event_id NOT LIKE 'integration.%' ORDER BY id`,
      [eleanor.customerId],
    );
    expect(audit.rows).toEqual([
      { event_id: 'identity.activation.issued', is_success: true },
      { event_id: 'registration.started', is_success: true },
    ]);
  });

  it('answers OK_1 when the details match but the email is not the one we hold, and sends nothing', async () => {
    const res = await register({ ...eleanorDetails, emailAddress: 'someone.else@example.org' });
    expect(res.json()).toEqual({ status: 'OK_1' });
    expect(await outbox(t.app, 'someone.else@example.org')).toEqual([]);
    expect(await outbox(t.app, eleanor.emailAddress)).toEqual([]);
  });

  it('answers OK_2 when nothing matches', async () => {
    const res = await register({ ...eleanorDetails, dateOfBirth: '1978-11-26' });
    expect(res.json()).toEqual({ status: 'OK_2' });
  });

  it('asks for a policy number when the customer holds no email, and registers with it', async () => {
    const first = await register({
      emailAddress: 'priya@example.org',
      dateOfBirth: priya.dateOfBirth,
      postCode: priya.postCode,
    });
    expect(first.json()).toEqual({ status: 'NEED_MORE_DATA' });
    const wrongPolicy = await register({
      emailAddress: 'priya@example.org',
      dateOfBirth: priya.dateOfBirth,
      postCode: priya.postCode,
      policyNumber: '102X4567891',
    });
    expect(wrongPolicy.json()).toEqual({ status: 'OK_2' });
    const second = await register({
      emailAddress: 'priya@example.org',
      dateOfBirth: priya.dateOfBirth,
      postCode: priya.postCode,
      policyNumber: '507p87654321',
    });
    expect(second.json()).toEqual({ status: 'OK' });
    expect((await outbox(t.app, 'priya@example.org'))[0]!.kind).toBe('activation');
  });

  it("matches a policy holder's postcode however the customer spaces it", async () => {
    const res = await register({
      emailAddress: 'priya@example.org',
      dateOfBirth: priya.dateOfBirth,
      postCode: priya.postCode.replace(' ', '').toLowerCase(),
      policyNumber: '507P87654321',
    });
    expect(res.json()).toEqual({ status: 'OK' });
  });

  it('answers OK_1 for a policy number whose holder has a different email', async () => {
    const res = await register({
      emailAddress: 'not.margaret@example.org',
      dateOfBirth: '1952-04-17',
      postCode: 'HR8 2AB',
      policyNumber: '102X4567891',
    });
    expect(res.json()).toEqual({ status: 'OK_1' });
  });

  it('does not reveal who is already registered: same answer, a reminder email instead of a link', async () => {
    const registered = await register({
      emailAddress: margaret.email,
      dateOfBirth: '1952-04-17',
      postCode: 'HR8 2AB',
    });
    const fresh = await register(eleanorDetails);
    expect(registered.statusCode).toBe(fresh.statusCode);
    expect(registered.body).toBe(fresh.body);
    expect(comparableHeaders(registered)).toEqual(comparableHeaders(fresh));
    const [reminder] = await outbox(t.app, margaret.email);
    expect(reminder).toMatchObject({
      kind: 'already-registered',
      subject: 'You already have an online account',
    });
    expect(reminder!.body).not.toMatch(/token=/);
    // The registered customer's account is untouched: the demo password still signs in.
    const signIn = await post(t.app, '/api/v1/authn', {
      username: margaret.email,
      password: margaret.password,
    });
    expect(tx(signIn).status).toBe('MFA_REQUIRED');
  });

  it('rejects malformed details with 400 and named fields, and a date of birth in the future', async () => {
    const res = await register({
      emailAddress: 'not-an-email',
      dateOfBirth: '1978-02-30',
      postCode: 'TOOLONGPC1',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fieldErrors).sort()).toEqual(['dateOfBirth', 'emailAddress', 'postCode']);
    const future = await register({ ...eleanorDetails, dateOfBirth: '2027-01-01' });
    expect(future.statusCode).toBe(400);
    expect(future.json()).toMatchObject({
      code: 'BAD_REQUEST',
      fieldErrors: { dateOfBirth: 'Date of birth must be in the past' },
    });
    const badPolicy = await register({ ...eleanorDetails, policyNumber: '12X345' });
    expect(badPolicy.json().fieldErrors).toEqual({ policyNumber: 'Enter a valid policy number' });
    const extra = await register({ ...eleanorDetails, admin: true });
    expect(extra.statusCode).toBe(400);
  });

  it('allows 5 attempts a day per email, then 429 with Retry-After until the day has passed', async () => {
    for (let i = 0; i < 5; i++) {
      expect(
        (await register({ ...eleanorDetails, dateOfBirth: '1978-11-26' }, `198.51.100.${i}`)).statusCode,
      ).toBe(200);
    }
    const limited = await register(eleanorDetails, '198.51.100.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(limited.json().correlationId).toBe(limited.headers['x-correlationid']);
    expect(limited.headers['retry-after']).toBe(String(24 * 60 * 60));
    // Another address is not affected.
    expect(
      (await register({ ...eleanorDetails, emailAddress: 'x@example.org' }, '198.51.100.98')).statusCode,
    ).toBe(200);
    t.clock.advance(24 * 60 * 60_000);
    expect((await register(eleanorDetails, '198.51.100.97')).json()).toEqual({ status: 'OK' });
  });

  it('limits attempts per client address', async () => {
    for (let i = 0; i < 30; i++) {
      expect(
        (await register({ ...eleanorDetails, emailAddress: `n${i}@example.org` }, '203.0.113.5')).statusCode,
      ).toBe(200);
    }
    const limited = await register({ ...eleanorDetails, emailAddress: 'n31@example.org' }, '203.0.113.5');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('runs the whole journey: activation link, password, code, completion', async () => {
    expect((await register(eleanorDetails)).json()).toEqual({ status: 'OK' });
    const token = await latestLinkToken(t.app, eleanor.emailAddress, 'activation');

    const activation = tx(await post(t.app, '/api/v1/authn', { token }));
    expect(activation.status).toBe('PASSWORD_RESET');
    if (activation.status !== 'PASSWORD_RESET') return;
    expect(activation.recoveryType).toBe('ACCOUNT_ACTIVATION');
    expect(activation._embedded.policy.complexity).toMatchObject({
      minLength: 12,
      maxLength: 128,
      minLowerCase: 0,
      minUpperCase: 0,
      minNumber: 0,
      minSymbol: 0,
      excludeUsername: true,
    });
    expect(activation._links.next.href).toBe('http://localhost:3000/api/v1/authn/credentials/reset_password');
    const { stateToken } = activation;
    const userId = activation._embedded.user.id;

    // The link works once.
    const reused = await post(t.app, '/api/v1/authn', { token });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().errorCode).toBe('E0000004');

    const weak = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken,
      newPassword: 'password1234',
    });
    expect(weak.statusCode).toBe(403);
    expect(weak.json()).toMatchObject({
      errorCode: 'E0000014',
      errorSummary: 'Update of credentials failed',
      errorCauses: [
        {
          errorSummary:
            'This password is too common or has appeared in a data breach. Choose a different one.',
        },
      ],
    });
    const short = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken,
      newPassword: 'short one',
    });
    expect(short.json().errorCauses[0].errorSummary).toBe(
      'Your password must be at least 12 characters long.',
    );

    const newPassword = 'Quayside-Gull-Morning-3';
    const mfa = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', { stateToken, newPassword }),
    );
    expect(mfa.status).toBe('MFA_REQUIRED');
    if (mfa.status !== 'MFA_REQUIRED') return;
    expect(mfa._embedded.factors.map((f) => f.factorType)).toEqual(['sms', 'call']);
    // Not active until the code is verified: the password does not sign in yet.
    expect(
      (await post(t.app, '/api/v1/authn', { username: eleanor.emailAddress, password: newPassword }))
        .statusCode,
    ).toBe(401);
    // Completing before the code is verified is refused.
    const early = await post(t.app, '/api/v1/registration/complete', { oktaUserId: userId, stateToken });
    expect(early.statusCode).toBe(400);
    expect(early.json().code).toBe('INVALID_STATE_TOKEN');

    const sms = mfa._embedded.factors[0]!;
    await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken });
    const done = tx(
      await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
        stateToken,
        passCode: await latestCode(t.app, eleanor.mobile),
      }),
    );
    expect(done.status).toBe('SUCCESS');
    if (done.status !== 'SUCCESS') return;
    expect(await t.app.ctx.services.identity.consumeSessionToken(done.sessionToken)).toMatchObject({
      customerId: eleanor.customerId,
    });

    const wrongUser = await post(t.app, '/api/v1/registration/complete', {
      oktaUserId: '00uSomeoneElse',
      stateToken,
    });
    expect(wrongUser.statusCode).toBe(400);
    const complete = await post(t.app, '/api/v1/registration/complete', { oktaUserId: userId, stateToken });
    expect(complete.statusCode).toBe(200);
    expect(complete.json()).toEqual({ status: 'COMPLETED' });
    const again = await post(t.app, '/api/v1/registration/complete', { oktaUserId: userId, stateToken });
    expect(again.json()).toEqual({ status: 'COMPLETED' });

    expect((await t.app.ctx.services.identity.getUser(userId))?.status).toBe('ACTIVE');
    expect(await t.app.ctx.services.identity.getPasswordLastUpdated(eleanor.customerId)).toEqual(
      t.clock.now(),
    );
    const events = await t.db.query<{ event_id: string }>(
      `SELECT event_id FROM audit_event WHERE customer_id = $1 AND is_success AND event_id NOT LIKE 'integration.%' ORDER BY id`,
      [eleanor.customerId],
    );
    expect(events.rows.map((r) => r.event_id)).toEqual([
      'identity.activation.issued',
      'registration.started',
      'identity.mfa.sent',
      'identity.password.set',
      'identity.activation',
      'identity.signin',
      'registration.completed',
    ]);
    // Registering again now is a reminder, not a new link.
    await register(eleanorDetails, '192.0.2.11');
    expect((await outbox(t.app, eleanor.emailAddress))[0]!.kind).toBe('already-registered');

    // After the stateToken's 10 minutes, completion is refused.
    t.clock.advance(10 * 60_000);
    expect(
      (await post(t.app, '/api/v1/registration/complete', { oktaUserId: userId, stateToken })).statusCode,
    ).toBe(400);
  });

  it('records the email on the customer record when registering with a policy number', async () => {
    await register({
      emailAddress: 'Priya.Shah@example.org',
      dateOfBirth: priya.dateOfBirth,
      postCode: priya.postCode,
      policyNumber: priya.policyNumber,
    });
    const token = await latestLinkToken(t.app, 'priya.shah@example.org', 'activation');
    const activation = tx(await post(t.app, '/api/v1/authn', { token }));
    if (activation.status !== 'PASSWORD_RESET') throw new Error(activation.status);
    const { stateToken } = activation;
    const mfa = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', {
        stateToken,
        newPassword: 'Orchard-Close-Easel-8',
      }),
    );
    if (mfa.status !== 'MFA_REQUIRED') throw new Error(mfa.status);
    // Landline and mobile: sms, call to the mobile, call to the landline.
    expect(
      mfa._embedded.factors.map((f) => [
        f.factorType,
        'phoneNumber' in f.profile ? f.profile.phoneNumber : null,
      ]),
    ).toEqual([
      ['sms', '+44 XXXX XXX789'],
      ['call', '+44 XXXX XXX789'],
      ['call', '+44 XXXX XXX111'],
    ]);
    const landline = mfa._embedded.factors[2]!;
    await post(t.app, `/api/v1/authn/factors/${landline.id}/verify`, { stateToken });
    const code = await latestCode(t.app, '01632960111');
    expect(code).toHaveLength(5);
    expect(
      tx(await post(t.app, `/api/v1/authn/factors/${landline.id}/verify`, { stateToken, passCode: code }))
        .status,
    ).toBe('SUCCESS');
    const done = await post(t.app, '/api/v1/registration/complete', {
      oktaUserId: activation._embedded.user.id,
      stateToken,
    });
    expect(done.json()).toEqual({ status: 'COMPLETED' });
    expect((await t.app.ctx.services.customers.get(priya.customerId))?.email).toBe('priya.shah@example.org');
  });

  it('expires activation links after 24 hours, and a newer link voids the older', async () => {
    const { customerId: _c, landline: _l, ...robertDetails } = robert;
    await register(robertDetails);
    const first = await latestLinkToken(t.app, robert.emailAddress, 'activation');
    t.clock.advance(60_000);
    await register(robertDetails, '192.0.2.12');
    const second = await latestLinkToken(t.app, robert.emailAddress, 'activation');
    expect(second).not.toBe(first);
    expect((await post(t.app, '/api/v1/authn', { token: first })).statusCode).toBe(401);

    t.clock.advance(24 * 60 * 60_000);
    expect((await post(t.app, '/api/v1/authn', { token: second })).statusCode).toBe(401);
    await register(robertDetails, '192.0.2.13');
    const third = await latestLinkToken(t.app, robert.emailAddress, 'activation');
    t.clock.advance(24 * 60 * 60_000 - 1000);
    expect(tx(await post(t.app, '/api/v1/authn', { token: third })).status).toBe('PASSWORD_RESET');
  });

  it('answers 503 with status Error when customer records cannot be read', async () => {
    const original = t.app.ctx.services.customers.findByDobAndPostcode;
    t.app.ctx.services.customers.findByDobAndPostcode = async () => {
      throw new Error('connection reset');
    };
    try {
      const res = await register(eleanorDetails);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'Error', code: 'REGISTRATION_UNAVAILABLE' });
      expect(res.body).not.toContain('connection reset');
    } finally {
      t.app.ctx.services.customers.findByDobAndPostcode = original;
    }
  });
});

describe('forgotten password', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const request = (email: string, ip = '192.0.2.20') =>
    post(t.app, '/Registration/resetPassword', { email }, { 'x-forwarded-for': ip });

  it('answers the same for an existing and an unknown account, and emails only the existing one', async () => {
    const existing = await request(margaret.email);
    const unknown = await request('nobody.at.all@example.org');
    expect(existing.statusCode).toBe(200);
    expect(existing.json()).toEqual({ status: 'OK' });
    expect(unknown.statusCode).toBe(existing.statusCode);
    expect(comparableBody(unknown)).toEqual(comparableBody(existing));
    expect(comparableHeaders(unknown)).toEqual(comparableHeaders(existing));
    const [email] = await outbox(t.app, margaret.email);
    expect(email).toMatchObject({ kind: 'password-reset', subject: 'Reset your password' });
    expect(email!.body).toMatch(/http:\/\/localhost:3000\/forgotten-password\/new-password\?token=/);
    expect(await outbox(t.app, 'nobody.at.all@example.org')).toEqual([]);
  });

  it('builds the link from configuration, never from the Host header', async () => {
    await post(t.app, '/Registration/resetPassword', { email: margaret.email }, { host: 'evil.example.com' });
    const [email] = await outbox(t.app, margaret.email);
    expect(email!.body).not.toContain('evil.example.com');
    expect(email!.body).toContain('http://localhost:3000/forgotten-password/new-password?token=');
  });

  it('sends at most 3 reset emails an hour per account, answering the same throughout', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await request(margaret.email, `192.0.2.${30 + i}`));
    for (const a of answers) expect(comparableBody(a)).toEqual({ status: 'OK' });
    expect(await outbox(t.app, margaret.email)).toHaveLength(3);
    t.clock.advance(60 * 60_000);
    await request(margaret.email);
    expect(await outbox(t.app, margaret.email)).toHaveLength(4);
  });

  it('resets the password with the link: 60 minutes, once, newest link only', async () => {
    await request(margaret.email);
    const older = await latestLinkToken(t.app, margaret.email, 'password-reset');
    await request(margaret.email);
    const token = await latestLinkToken(t.app, margaret.email, 'password-reset');
    const voided = await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: older });
    expect(voided.statusCode).toBe(403);
    expect(voided.json()).toMatchObject({ errorCode: 'E0000105' });

    t.clock.advance(60 * 60_000 - 1000);
    const reset = tx(await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token }));
    expect(reset.status).toBe('PASSWORD_RESET');
    if (reset.status !== 'PASSWORD_RESET') return;
    expect(reset.recoveryType).toBe('PASSWORD');
    expect((await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token })).statusCode).toBe(
      403,
    );

    const sameAsLocal = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken: reset.stateToken,
      newPassword: 'margaret.thompson',
    });
    expect(sameAsLocal.json().errorCauses[0].errorSummary).toBe(
      'Your password must not be the first part of your email address.',
    );
    const newPassword = 'Harwood-Bluebell-Lane-5';
    const mfa = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', {
        stateToken: reset.stateToken,
        newPassword,
      }),
    );
    if (mfa.status !== 'MFA_REQUIRED') throw new Error(mfa.status);
    const sms = mfa._embedded.factors[0]!;
    await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken: reset.stateToken });
    const done = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
      stateToken: reset.stateToken,
      passCode: await latestCode(t.app, margaret.mobile),
    });
    expect(tx(done).status).toBe('SUCCESS');
    t.clock.advance(1000);
    expect(
      (await post(t.app, '/api/v1/authn', { username: margaret.email, password: margaret.password }))
        .statusCode,
    ).toBe(401);
    t.clock.advance(1000);
    expect(
      tx(await post(t.app, '/api/v1/authn', { username: margaret.email, password: newPassword })).status,
    ).toBe('MFA_REQUIRED');
  });

  it('expires reset links after 60 minutes', async () => {
    await request(margaret.email);
    const token = await latestLinkToken(t.app, margaret.email, 'password-reset');
    t.clock.advance(60 * 60_000);
    expect((await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token })).statusCode).toBe(
      403,
    );
  });

  it("answers Okta's recovery/password the same for everyone", async () => {
    const known = await post(t.app, '/api/v1/authn/recovery/password', {
      username: margaret.email,
      factorType: 'EMAIL',
    });
    const unknown = await post(t.app, '/api/v1/authn/recovery/password', {
      username: 'ghost@example.org',
      factorType: 'EMAIL',
    });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({
      status: 'RECOVERY_CHALLENGE',
      factorResult: 'WAITING',
      factorType: 'EMAIL',
      recoveryType: 'PASSWORD',
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(comparableHeaders(unknown)).toEqual(comparableHeaders(known));
    expect((await outbox(t.app, margaret.email))[0]!.kind).toBe('password-reset');
    const sms = await post(t.app, '/api/v1/authn/recovery/password', {
      username: margaret.email,
      factorType: 'SMS',
    });
    expect(sms.statusCode).toBe(400);
    expect(sms.json().errorCode).toBe('E0000001');
  });

  it('sends a fresh activation link to an account that was never activated', async () => {
    await post(t.app, '/Registration', {
      emailAddress: eleanor.emailAddress,
      dateOfBirth: eleanor.dateOfBirth,
      postCode: eleanor.postCode,
    });
    await request(eleanor.emailAddress);
    const messages = await outbox(t.app, eleanor.emailAddress);
    expect(messages.map((m) => m.kind)).toEqual(['activation', 'activation']);
  });
});
