import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import {
  latestCode,
  margaret,
  david,
  outbox,
  post,
  signIn,
  signInFully,
  tx,
} from '../../../test/identity-support';

describe('sign-in with a one-time code (Okta classic Authentication API)', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('answers MFA_REQUIRED with masked factors, then MFA_CHALLENGE, then SUCCESS with a one-time sessionToken', async () => {
    const res = await post(t.app, '/api/v1/authn', { username: margaret.email, password: margaret.password });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = tx(res);
    expect(body.status).toBe('MFA_REQUIRED');
    if (body.status !== 'MFA_REQUIRED') return;
    expect(body.stateToken).toMatch(/^00[\w-]{40,}$/);
    expect(new Date(body.expiresAt).getTime()).toBe(t.clock.now().getTime() + 10 * 60_000);
    expect(body._embedded.user.profile.login).toBe(margaret.email);
    expect(body._links.cancel.href).toBe('http://localhost:3000/api/v1/authn/cancel');
    expect(
      body._embedded.factors.map((f) =>
        'phoneNumber' in f.profile
          ? [f.factorType, f.profile.phoneNumber, f.profile.landlineIsAMobile]
          : [f.factorType],
      ),
    ).toEqual([
      ['sms', '+44 XXXX XXX123', false],
      ['call', '+44 XXXX XXX123', true],
      ['call', '+44 XXXX XXX456', false],
    ]);
    // No full number anywhere in the answer.
    expect(res.body).not.toContain('900123');
    const sms = body._embedded.factors[0]!;
    expect(sms._links?.verify.href).toBe(`http://localhost:3000/api/v1/authn/factors/${sms.id}/verify`);

    const challenge = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
      stateToken: body.stateToken,
    });
    expect(challenge.statusCode).toBe(200);
    const c = tx(challenge);
    expect(c.status).toBe('MFA_CHALLENGE');
    if (c.status !== 'MFA_CHALLENGE') return;
    expect(c.factorResult).toBe('CHALLENGE');
    expect(c._embedded.factor.id).toBe(sms.id);
    expect(c._links.next.href).toContain(`/factors/${sms.id}/verify`);
    expect(c._links.prev.href).toBe('http://localhost:3000/api/v1/authn/previous');
    expect(c._links.resend?.[0]?.href).toBe(
      `http://localhost:3000/api/v1/authn/factors/${sms.id}/verify/resend`,
    );

    const [message] = await outbox(t.app, margaret.mobile);
    expect(message!.channel).toBe('sms');
    const passCode = await latestCode(t.app, margaret.mobile);
    expect(passCode).toMatch(/^\d{6}$/);

    const done = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
      stateToken: body.stateToken,
      passCode,
    });
    expect(done.statusCode).toBe(200);
    const s = tx(done);
    expect(s.status).toBe('SUCCESS');
    if (s.status !== 'SUCCESS') return;
    expect(new Date(s.expiresAt).getTime()).toBe(t.clock.now().getTime() + 5 * 60_000);

    const redeemed = await t.app.ctx.services.identity.consumeSessionToken(s.sessionToken);
    expect(redeemed).toEqual({
      userId: s._embedded.user.id,
      customerId: margaret.customerId,
      login: margaret.email,
      // Password and a text-message code (RFC 8176 method names).
      amr: ['pwd', 'sms', 'mfa'],
    });
    expect(await t.app.ctx.services.identity.consumeSessionToken(s.sessionToken)).toBeNull();

    const audit = await t.db.query<{
      event_id: string;
      is_success: boolean;
      details: Record<string, unknown>;
    }>(
      `SELECT event_id, is_success, details FROM audit_event WHERE customer_id = $1 AND event_id LIKE 'identity.%' ORDER BY id`,
      [margaret.customerId],
    );
    expect(audit.rows.map((r) => r.event_id)).toEqual(['identity.mfa.sent', 'identity.signin']);
    expect(audit.rows[0]!.details).toMatchObject({ mfaSendMethod: 'sms', phoneNumber: '+44 XXXX XXX123' });
    expect(JSON.stringify(audit.rows)).not.toContain(passCode);
  });

  it('sends a 5-digit voice code to a landline and a 6-digit one to a mobile', async () => {
    const { stateToken, factors } = await signIn(t.app, david.email, david.password);
    expect(factors).toHaveLength(1);
    expect(factors[0]).toMatchObject({ factorType: 'call', profile: { landlineIsAMobile: false } });
    await post(t.app, `/api/v1/authn/factors/${factors[0]!.id}/verify`, { stateToken });
    const [voice] = await outbox(t.app, david.landline);
    expect(voice!.channel).toBe('voice');
    expect(await latestCode(t.app, david.landline)).toMatch(/^\d{5}$/);

    const m = await signIn(t.app, margaret.email, margaret.password);
    const mobileCall = m.factors.find((f) => f.factorType === 'call' && f.profile.landlineIsAMobile)!;
    await post(t.app, `/api/v1/authn/factors/${mobileCall.id}/verify`, { stateToken: m.stateToken });
    expect((await outbox(t.app, margaret.mobile))[0]!.channel).toBe('voice');
    expect(await latestCode(t.app, margaret.mobile)).toMatch(/^\d{6}$/);
  });

  it('treats a wrong password, an unknown user, a locked user and an inactive user alike', async () => {
    const answers = [];
    answers.push(
      await post(t.app, '/api/v1/authn', { username: margaret.email, password: 'WrongPassword123' }),
    );
    answers.push(
      await post(t.app, '/api/v1/authn', { username: 'nobody@example.org', password: 'WrongPassword123' }),
    );
    const { identity } = t.app.ctx.services;
    // An inactive (never activated) account.
    await t.app.ctx.services.registration.start(
      { emailAddress: 'eleanor.hughes@example.co.uk', dateOfBirth: '1978-11-25', postCode: 'EX39 2QQ' },
      '127.0.0.9',
    );
    expect((await identity.getUserByCustomerId('C1000003'))?.status).toBe('PROVISIONED');
    answers.push(
      await post(t.app, '/api/v1/authn', {
        username: 'eleanor.hughes@example.co.uk',
        password: 'Whatever12345',
      }),
    );
    // A locked account, even with the right password.
    await t.db.query(`UPDATE identity_user SET locked_until = $2 WHERE customer_id = $1`, [
      david.customerId,
      new Date(t.clock.now().getTime() + 60_000),
    ]);
    answers.push(await post(t.app, '/api/v1/authn', { username: david.email, password: david.password }));

    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      const { errorId, ...rest } = res.json();
      expect(errorId).toBe(res.headers['x-correlationid']);
      expect(rest).toEqual({
        errorCode: 'E0000004',
        errorSummary: 'Authentication failed',
        errorLink: 'E0000004',
        errorCauses: [],
      });
      const { date: _d, 'x-correlationid': _c, ...headers } = res.headers;
      const { date: _d0, 'x-correlationid': _c0, ...first } = answers[0]!.headers;
      expect(headers).toEqual(first);
    }
    // This test's answers only (the demo data has a history of its own).
    const reasons = await t.db.query<{ failure_reason: string }>(
      `SELECT failure_reason FROM audit_event WHERE event_id = 'identity.signin' AND correlation_id = ANY($1)
        ORDER BY id`,
      [answers.map((res) => res.headers['x-correlationid'])],
    );
    expect(reasons.rows.map((r) => r.failure_reason)).toEqual([
      'WRONG_PASSWORD',
      'UNKNOWN_USER',
      'NOT_ACTIVE',
      'LOCKED_OUT',
    ]);
  });

  it('limits primary authentication to 4 requests a second per username, with X-Rate-Limit headers', async () => {
    const attempt = () =>
      post(t.app, '/api/v1/authn', { username: 'Someone@Example.org', password: 'nope-nope-nope' });
    const first = await attempt();
    expect(first.headers['x-rate-limit-limit']).toBe('4');
    expect(first.headers['x-rate-limit-remaining']).toBe('3');
    expect(first.headers['x-rate-limit-reset']).toBe(
      String(Math.ceil((t.clock.now().getTime() + 1000) / 1000)),
    );
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    // Same username in another letter case: same bucket.
    const limited = await post(t.app, '/api/v1/authn', { username: 'someone@example.org', password: 'x' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ errorCode: 'E0000047' });
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['x-rate-limit-remaining']).toBe('0');
    // Another username is not affected; a second later the first is free again.
    expect(
      (await post(t.app, '/api/v1/authn', { username: 'other@example.org', password: 'x' })).statusCode,
    ).toBe(401);
    t.clock.advance(1001);
    expect((await attempt()).statusCode).toBe(401);
  });

  it('answers Okta validation errors for bad input, never a 500', async () => {
    const missing = await post(t.app, '/api/v1/authn', { username: margaret.email });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      errorCode: 'E0000001',
      errorSummary: 'Api validation failed: password',
    });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authn',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ errorCode: 'E0000003' });
    const badFactor = await post(t.app, '/api/v1/authn/factors/..%2F/verify', { stateToken: 'x' });
    expect(badFactor.statusCode).toBe(400);
    expect(badFactor.json()).toMatchObject({ errorCode: 'E0000001' });
  });

  it('gives a full sign-in a session token that works once and only for 5 minutes', async () => {
    const token = await signInFully(t.app, margaret.email, margaret.password, margaret.mobile);
    t.clock.advance(5 * 60_000);
    expect(await t.app.ctx.services.identity.consumeSessionToken(token)).toBeNull();
    const second = await signInFully(t.app, margaret.email, margaret.password, margaret.mobile);
    t.clock.advance(5 * 60_000 - 1);
    expect(await t.app.ctx.services.identity.consumeSessionToken(second)).not.toBeNull();
  });

  it('redeems a session token exactly once among 20 parallel attempts', async () => {
    const token = await signInFully(t.app, margaret.email, margaret.password, margaret.mobile);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.app.ctx.services.identity.consumeSessionToken(token)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
});

describe('identity and registration under their own base URLs', () => {
  let t: TestContext;
  afterEach(() => t.close());

  it('serves the Okta API under the identity path and builds links from configuration', async () => {
    t = await createTestApp({
      IDENTITY_BASE_URL: 'https://id.example.org/okta',
      REGISTRATION_BASE_URL: 'https://register.example.org/reg',
    });
    expect(
      (await post(t.app, '/api/v1/authn', { username: margaret.email, password: margaret.password }))
        .statusCode,
    ).not.toBe(200);
    const res = await post(t.app, '/okta/api/v1/authn', {
      username: margaret.email,
      password: margaret.password,
    });
    const body = tx(res);
    if (body.status !== 'MFA_REQUIRED') throw new Error(res.body);
    expect(body._links.cancel.href).toBe('https://id.example.org/okta/api/v1/authn/cancel');
    expect(body._embedded.factors[0]!._links?.verify.href).toMatch(
      /^https:\/\/id\.example\.org\/okta\/api\/v1\/authn\/factors\//,
    );
    const reg = await post(t.app, '/reg/Registration', {
      emailAddress: 'eleanor.hughes@example.co.uk',
      dateOfBirth: '1978-11-25',
      postCode: 'EX39 2QQ',
    });
    expect(reg.json()).toEqual({ status: 'OK' });
    // Links in emails point at the SPA (PUBLIC_URL), not at a service host.
    expect((await outbox(t.app, 'eleanor.hughes@example.co.uk'))[0]!.body).toContain(
      'http://localhost:3000/register/activate?token=',
    );
  });
});
