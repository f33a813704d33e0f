import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signIn } from '../../../test/sign-in';
import { rateLimits, rateWindowMs } from './eventlog.service';

interface AuditRow {
  source: string;
  event_id: string;
  customer_id: string | null;
  on_behalf_of: string | null;
  session_id: string | null;
  correlation_id: string | null;
  is_success: boolean | null;
  failure_reason: string | null;
  details: Record<string, unknown>;
}

const preLogin = {
  sessionId: '0b6f8c1e-3d0a-4b9e-9a57-5d1b2f7c9e10',
  eventId: 'Login',
  isSuccess: false,
  failureReason: 'Authentication failure',
  authenticationStatus: 'Unauthenticated',
};

describe('POST /api/v1/audit (event logging)', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/audit', payload: body as object, headers });

  const rows = async (sessionId: string) =>
    (
      await t.db.query<AuditRow>(
        `SELECT source, event_id, customer_id, on_behalf_of, session_id, correlation_id, is_success,
           failure_reason, details
         FROM audit_event WHERE session_id = $1 ORDER BY id`,
        [sessionId],
      )
    ).rows;

  it('stores a pre-login event as a client row, keeping only the fact that a state token was sent', async () => {
    const res = await post(
      {
        ...preLogin,
        mfaSendMethod: 'sms',
        mfaUsedForLogin: true,
        customerId: '',
        onBehalfOf: null,
        documentName: '',
        stateToken: '00abcSecretStateToken',
      },
      { 'x-correlationid': 'corr-audit-1' },
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: true });

    const stored = await rows(preLogin.sessionId);
    expect(stored).toEqual([
      {
        source: 'client',
        event_id: 'Login',
        customer_id: null,
        on_behalf_of: null,
        session_id: preLogin.sessionId,
        correlation_id: 'corr-audit-1',
        is_success: false,
        failure_reason: 'Authentication failure',
        details: {
          authenticationStatus: 'Unauthenticated',
          tokenVerified: false,
          mfaSendMethod: 'sms',
          mfaUsedForLogin: true,
          stateTokenPresent: true,
        },
      },
    ]);
    expect(JSON.stringify(stored)).not.toContain('SecretStateToken');
  });

  it('stores the registration preference fields it is given', async () => {
    const sessionId = 'reg-session-1';
    const res = await post({
      sessionId,
      eventId: 'Registration marketing preferences',
      isSuccess: true,
      correspondencePreference: 'paperless',
      marketingChannels: 'email,online,post',
      marketingConsent: true,
      policyNumber: '507p87654321',
      authenticationStatus: 'Unauthenticated',
    });
    expect(res.statusCode).toBe(202);
    const [row] = await rows(sessionId);
    expect(row?.details).toEqual({
      authenticationStatus: 'Unauthenticated',
      tokenVerified: false,
      correspondencePreference: 'paperless',
      marketingChannels: 'email,online,post',
      marketingConsent: true,
      policyNumber: '507P87654321',
    });
  });

  it.each([
    ['an unknown field', { ...preLogin, password: 'x' }, 'password'],
    ['a missing event id', { ...preLogin, eventId: undefined }, 'eventId'],
    ['a missing session id', { ...preLogin, sessionId: undefined }, 'sessionId'],
    ['a bad authentication status', { ...preLogin, authenticationStatus: 'Maybe' }, 'authenticationStatus'],
    ['a bad send method', { ...preLogin, mfaSendMethod: 'email' }, 'mfaSendMethod'],
    ['an unknown marketing channel', { ...preLogin, marketingChannels: 'email,fax' }, 'marketingChannels'],
    ['a repeated marketing channel', { ...preLogin, marketingChannels: 'post,post' }, 'marketingChannels'],
    [
      'a bad correspondence preference',
      { ...preLogin, correspondencePreference: 'email' },
      'correspondencePreference',
    ],
    ['a consent that is not a boolean', { ...preLogin, marketingConsent: 'yes' }, 'marketingConsent'],
    ['a bad policy number', { ...preLogin, policyNumber: '12345' }, 'policyNumber'],
    ['an over-long failure reason', { ...preLogin, failureReason: 'x'.repeat(201) }, 'failureReason'],
    [
      'an Authenticated status without a token',
      { ...preLogin, authenticationStatus: 'Authenticated' },
      'authenticationStatus',
    ],
    ['a customer id without a token', { ...preLogin, customerId: 'C1000001' }, 'customerId'],
    ['an on-behalf-of id without a token', { ...preLogin, onBehalfOf: 'C1000001' }, 'onBehalfOf'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_name, body, field) => {
    const sessionId = `bad-${field}`;
    const res = await post({ ...body, ...(field === 'sessionId' ? {} : { sessionId }) });
    expect(res.statusCode).toBe(400);
    const error = res.json();
    expect(error.code).toBe('BAD_REQUEST');
    if (field === 'password') {
      // An unknown key is reported on the body as a whole, naming the key.
      expect(error.fieldErrors.body).toContain('password');
    } else {
      expect(Object.keys(error.fieldErrors)).toContain(field);
    }
    expect(error.correlationId).toEqual(expect.any(String));
    expect(await rows(sessionId)).toEqual([]);
  });

  it('refuses a body that is not JSON, and a bearer header that is not a valid token', async () => {
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audit',
      payload: '{"eventId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('BAD_REQUEST');

    const forged = await post({ ...preLogin, sessionId: 'forged' }, { authorization: 'Bearer abc.def.ghi' });
    expect(forged.statusCode).toBe(401);
    const garbled = await post({ ...preLogin, sessionId: 'forged' }, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(garbled.statusCode).toBe(401);
    expect(await rows('forged')).toEqual([]);
  });

  it('limits pre-login events per session id, then lets them through once the window has passed', async () => {
    const body = { ...preLogin, sessionId: 'chatty-session' };
    for (let i = 0; i < rateLimits.perSession; i++) expect((await post(body)).statusCode).toBe(202);
    const limited = await post(body);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await rows('chatty-session')).toHaveLength(rateLimits.perSession);

    t.clock.advance(rateWindowMs + 1000);
    expect((await post(body)).statusCode).toBe(202);
  });

  it('limits pre-login events per IP address even when every post claims a new session', async () => {
    for (let i = 0; i < rateLimits.perIp; i++) {
      expect((await post({ ...preLogin, sessionId: `ip-${i}` })).statusCode).toBe(202);
    }
    const limited = await post({ ...preLogin, sessionId: 'ip-one-more' });
    expect(limited.statusCode).toBe(429);
    expect(await rows('ip-one-more')).toEqual([]);

    const otherAddress = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audit',
      payload: { ...preLogin, sessionId: 'other-household' },
      remoteAddress: '203.0.113.9',
    });
    expect(otherAddress.statusCode).toBe(202);
  });

  it('with a valid bearer token stores the token’s customer and on-behalf-of ids', async () => {
    const margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    const sessionId = 'signed-in-session';
    const res = await post(
      {
        sessionId,
        eventId: 'Document download',
        isSuccess: true,
        documentName: 'Policy schedule',
        policyNumber: '102X4567891',
        customerId: margaret.customerId,
        authenticationStatus: 'Authenticated',
      },
      { authorization: margaret.authorization },
    );
    expect(res.statusCode).toBe(202);
    const [row] = await rows(sessionId);
    expect(row).toMatchObject({
      source: 'client',
      event_id: 'Document download',
      customer_id: 'C1000001',
      on_behalf_of: expect.any(String),
      details: {
        authenticationStatus: 'Authenticated',
        tokenVerified: true,
        documentName: 'Policy schedule',
        policyNumber: '102X4567891',
      },
    });

    // The customer id may be left out: the token names the customer.
    expect(
      (await post({ ...preLogin, sessionId }, { authorization: margaret.authorization })).statusCode,
    ).toBe(202);
    expect((await rows(sessionId)).map((r) => r.customer_id)).toEqual(['C1000001', 'C1000001']);

    const otherCustomer = await post(
      { ...preLogin, sessionId, customerId: 'C1000002', authenticationStatus: 'Authenticated' },
      { authorization: margaret.authorization },
    );
    expect(otherCustomer.statusCode).toBe(400);
    expect(otherCustomer.json().fieldErrors).toHaveProperty('customerId');
    const otherActor = await post(
      { ...preLogin, sessionId, onBehalfOf: 'someone-else', authenticationStatus: 'Authenticated' },
      { authorization: margaret.authorization },
    );
    expect(otherActor.statusCode).toBe(400);
    expect(otherActor.json().fieldErrors).toHaveProperty('onBehalfOf');
    expect(await rows(sessionId)).toHaveLength(2);

    t.clock.advance(t.config.oidc.accessTokenTtl * 1000 + 1000);
    const expired = await post({ ...preLogin, sessionId }, { authorization: margaret.authorization });
    expect(expired.statusCode).toBe(401);
    expect(await rows(sessionId)).toHaveLength(2);
  });
});
