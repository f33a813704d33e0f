/**
 * Issue 38 point 1: a customer erased by the insurer (the customer DELETE) is signed out everywhere at the
 * moment the erasure commits. Her access token, still within its lifetime, is refused with 401 by every
 * customer call on every instance, never answered with empty lists, and the refresh token is spent. Two
 * instances share the database (and Redis when REDIS_URL is set), as behind a load balancer; the clock
 * never moves, so the half-second check of the grant cannot be what refuses her: the deletion's
 * announcement is (migration 150). A third instance that cannot listen refuses her within that
 * half-second, the fallback's bound. On PostgreSQL too when DATABASE_URL is set (a customer of this run's
 * own, loaded through the integration API).
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { bearer, clientToken, integrationEnv } from '../../../test/integration-client';
import type { Db } from '../../platform/db';
import { createTestUser } from '../../../test/identity-support';
import { signInTokens, tokenRequest, type TokenSet } from '../../../test/oidc-support';

const redisEnv = (): Record<string, string> =>
  process.env.REDIS_URL
    ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `test-${randomUUID()}:` }
    : {};

/** Every customer call of the customer's, as the SPA makes them. */
const customerCalls = (id: string) => [
  `/api/v1/profile/${id}`,
  `/api/v1/policy/${id}`,
  `/api/v1/quote/${id}`,
  `/api/v1/agency/${id}`,
  `/api/v1/document/billing/${id}`,
  `/api/v1/customers/${id}/notifications`,
  `/api/v1/Preferences/${id}/user`,
  `/api/v1/account-activity/${id}`,
  `/api/v1/sign-in-sessions/${id}`,
];

/** The database without LISTEN: an instance whose listening connection is lost. */
const deaf = (db: Db): Db => {
  const { listen: _listen, ...rest } = db;
  return rest;
};

describe.each(databases())('a customer erased while signed in, on $name', ({ open }) => {
  let a: TestContext;
  let b: TestContext;
  let c: TestContext;
  let tokens: TokenSet;
  const customerId = `C8${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

  const call = (app: FastifyInstance, url: string) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens.access_token}` } });
  const statuses = async (app: FastifyInstance) =>
    Object.fromEntries(
      await Promise.all(
        customerCalls(customerId).map(async (url) => [url, (await call(app, url)).statusCode]),
      ),
    );

  beforeAll(async () => {
    const env = { ...integrationEnv(), ...redisEnv() };
    a = await createTestApp(env, { db: await open() });
    b = await createTestApp(env, { db: a.db, clock: a.clock });
    c = await createTestApp(env, { db: deaf(a.db), clock: a.clock });
    const token = await clientToken(a.app);
    // Her record, loaded as the insurer loads one, and a sign-in account for it.
    const loaded = await a.app.inject({
      method: 'PUT',
      url: `/integration/v1/customers/${customerId}`,
      headers: bearer(token),
      payload: {
        // A version above any an earlier run on the shared database left as a tombstone for this id.
        version: Date.now(),
        title: 'Mrs',
        firstName: 'Elsie',
        lastName: 'Marsh',
        dateOfBirth: '1951-06-02',
        email: `elsie.marsh.${customerId.toLowerCase()}@example.co.uk`,
        mobileNumber: '07700900555',
        landlineNumber: null,
        address: {
          lineOne: '3 Church Row',
          lineTwo: '',
          lineThree: '',
          town: 'Clun',
          county: 'Shropshire',
          postCode: 'SY7 8JA',
        },
        agencyId: null,
      },
    });
    expect(loaded.statusCode).toBe(200);
    const user = await createTestUser(a.db, { now: a.clock.now() });
    await a.db.query('UPDATE identity_user SET customer_id = $2 WHERE id = $1', [user.id, customerId]);
    tokens = await signInTokens(a, {
      login: user.login,
      password: user.password,
      phone: user.mobile!,
      factor: 'sms',
      customerId,
    });
  });
  afterAll(async () => {
    await c?.close();
    await b?.close();
    await a?.close();
  });

  it('is refused with 401 by every customer call on every instance from the moment the erasure commits', async () => {
    // Every instance has just seen her token as good (and remembers that for half a second).
    // (She has no agency: that call answers 404, as for any customer without one.)
    const before = Object.fromEntries(
      customerCalls(customerId).map((url) => [url, /agency/.test(url) ? 404 : 200]),
    );
    for (const app of [a.app, b.app, c.app]) expect(await statuses(app)).toEqual(before);

    const token = await clientToken(a.app);
    const erased = await a.app.inject({
      method: 'DELETE',
      url: `/integration/v1/customers/${customerId}?version=${Date.now()}`,
      headers: bearer(token),
    });
    expect(erased.statusCode).toBe(200);
    expect(erased.json()).toMatchObject({ status: 'removed' });

    // PostgreSQL delivers the announcement over the listening connection a moment after the commit; the
    // embedded database as it commits. The clock stands still throughout.
    await vi.waitFor(
      async () => expect((await call(b.app, customerCalls(customerId)[1]!)).statusCode).toBe(401),
      {
        timeout: 2000,
        interval: 20,
      },
    );
    for (const app of [a.app, b.app]) {
      expect(await statuses(app)).toEqual(
        Object.fromEntries(customerCalls(customerId).map((url) => [url, 401])),
      );
      const refused = await call(app, `/api/v1/policy/${customerId}`);
      expect(refused.headers['www-authenticate']).toContain('The sign-in session has ended');
      expect(refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('is refused by an instance that heard nothing within the grant check of half a second', async () => {
    a.clock.advance(501);
    expect(await statuses(c.app)).toEqual(
      Object.fromEntries(customerCalls(customerId).map((url) => [url, 401])),
    );
  });

  it('has no refresh token left to renew with', async () => {
    const res = await tokenRequest(b, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
