/**
 * Two instances of the portal behind one load balancer behave as one: each request of a sign-in may
 * land on either, and every limit (wrong passwords, wrong codes, resends) counts the requests both saw.
 * Both apps share one database and one clock, and Redis counters too when REDIS_URL is set; nothing
 * is shared in process memory, which is what the test proves.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createTestApp, createTestDb, type TestContext } from '../../../test/helpers';
import { signIn } from '../../../test/sign-in';
import { ManualClock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { createTestUser, latestCode, post, tx } from '../../../test/identity-support';

const variants: Array<{ name: string; env: () => Record<string, string> }> = [
  { name: 'database counters', env: () => ({}) },
];
if (process.env.REDIS_URL) {
  variants.push({
    name: 'Redis counters',
    env: () => ({ REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
  });
}

const wrong = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

describe.each(variants)('two instances ($name)', (variant) => {
  let db: Db;
  let clock: ManualClock;
  let a: TestContext;
  let b: TestContext;
  let user: Awaited<ReturnType<typeof createTestUser>>;

  beforeEach(async () => {
    db = await createTestDb();
    clock = new ManualClock();
    const env = variant.env();
    a = await createTestApp(env, { db, clock });
    b = await createTestApp(env, { db, clock });
    user = await createTestUser(db, { now: clock.now() });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await db.close();
  });

  /** The instance the load balancer picks for the i-th request: each in turn. */
  const instance = (i: number) => (i % 2 === 0 ? a : b);

  async function startSignIn(on: TestContext) {
    const res = await post(on.app, '/api/v1/authn', { username: user.login, password: user.password });
    expect(res.statusCode).toBe(200);
    const body = tx(res);
    if (body.status !== 'MFA_REQUIRED') throw new Error(`expected MFA_REQUIRED, got ${body.status}`);
    const factor = body._embedded.factors.find((f) => f.factorType === 'sms')!;
    const url = `/api/v1/authn/factors/${factor.id}/verify`;
    return { stateToken: body.stateToken, url };
  }

  it('carries one sign-in across both: password on one, code sent by the other, checked by the first', async () => {
    const { stateToken, url } = await startSignIn(a);
    expect((await post(b.app, url, { stateToken })).statusCode).toBe(200);
    const passCode = await latestCode(a.app, user.mobile!);
    expect(tx(await post(a.app, url, { stateToken, passCode })).status).toBe('SUCCESS');
  });

  it('completes a whole sign-in, OpenID steps included, with every request on the other instance', async () => {
    let turn = 0;
    const inject = (options: InjectOptions) => instance(turn++).app.inject(options);
    // A load balancer that alternates: each request of the journey goes to the other instance.
    const balancer: TestContext = { ...a, app: { inject } as unknown as FastifyInstance };
    const margaret = await signIn(balancer, 'margaret.thompson@example.co.uk');
    expect(turn).toBeGreaterThan(6);
    for (const on of [a, b]) {
      const res = await on.app.inject({
        method: 'GET',
        url: `/api/v1/Preferences/${margaret.customerId}/user`,
        headers: { authorization: margaret.authorization },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('locks the account after 10 wrong passwords, whichever instance saw them', async () => {
    for (let i = 0; i < 10; i++) {
      clock.advance(1000);
      const res = await post(instance(i).app, '/api/v1/authn', { username: user.login, password: 'nope' });
      expect(res.statusCode).toBe(401);
    }
    for (const on of [a, b]) {
      clock.advance(1000);
      const res = await post(on.app, '/api/v1/authn', { username: user.login, password: user.password });
      expect(res.json()).toMatchObject({ errorCode: 'E0000004' });
    }
  });

  it('kills a code after 5 wrong tries spread over both', async () => {
    const { stateToken, url } = await startSignIn(a);
    expect((await post(a.app, url, { stateToken })).statusCode).toBe(200);
    const code = await latestCode(a.app, user.mobile!);
    for (let i = 0; i < 5; i++) {
      const res = await post(instance(i).app, url, { stateToken, passCode: wrong(code) });
      expect(res.json()).toMatchObject({ errorCode: 'E0000068' });
    }
    const late = await post(b.app, url, { stateToken, passCode: code });
    expect(late.statusCode).toBe(403);
    expect(late.json().errorCauses[0].errorSummary).toMatch(/can no longer be used/);
  });

  it('allows one resend per 30 seconds, counted across both', async () => {
    const { stateToken, url } = await startSignIn(a);
    expect((await post(a.app, url, { stateToken })).statusCode).toBe(200);
    clock.advance(10_000);
    const early = await post(b.app, `${url}/resend`, { stateToken });
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('20');
    clock.advance(20_000);
    expect((await post(b.app, `${url}/resend`, { stateToken })).statusCode).toBe(200);
    expect((await post(a.app, `${url}/resend`, { stateToken })).statusCode).toBe(429);
  });
});
