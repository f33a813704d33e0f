/**
 * Per client address limits of the identity API, counted in the shared counters so they hold across
 * instances: failed sign-ins whatever the usernames (no spraying, no locking everyone out), codes sent,
 * and emailed links (forgotten password and unlock). Each runs on two instances sharing the database,
 * and Redis counters and a PostgreSQL server when REDIS_URL and DATABASE_URL are set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, createTestDb, type TestContext } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import { openDb, type Db } from '../../platform/db';
import { comparableBody, createTestUser, tx } from '../../../test/identity-support';

const variants: Array<{ name: string; env: () => Record<string, string>; db?: () => Promise<Db> }> = [
  { name: 'database counters', env: () => ({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }) },
];
if (process.env.REDIS_URL) {
  variants.push({
    name: 'Redis counters',
    env: () => ({ REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
  });
}
if (process.env.DATABASE_URL) {
  variants.push({
    name: 'PostgreSQL',
    env: () => ({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
    db: () => openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 4 }),
  });
  if (process.env.REDIS_URL) {
    variants.push({
      name: 'PostgreSQL and Redis',
      env: () => ({ REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
      db: () => openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 4 }),
    });
  }
}

const attacker = '203.0.113.66';
const customerAddress = '198.51.100.23';

const expectRateLimited = (res: LightMyRequestResponse) => {
  expect(res.statusCode).toBe(429);
  expect(comparableBody(res)).toMatchObject({ errorCode: 'E0000047' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
};

/** Tens of sign-ins (argon2 each) per test, on a machine that may be busy. */
const SLOW = 120_000;

describe.each(variants)('per-address limits on two instances ($name)', (variant) => {
  let db: Db;
  let ownDb = true;
  let clock: ManualClock;
  let a: TestContext;
  let b: TestContext;
  let sharedDb: Db | undefined;

  beforeEach(async () => {
    sharedDb ??= variant.db ? await variant.db() : undefined;
    ownDb = !sharedDb;
    db = sharedDb ?? (await createTestDb());
    clock = new ManualClock();
    const env = variant.env();
    a = await createTestApp(env, { db, clock });
    b = await createTestApp(env, { db, clock });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    if (ownDb) await db.close();
  });
  afterAll(async () => {
    await sharedDb?.close();
  });

  /** The i-th request goes to each instance in turn, from `from`. */
  let turn = 0;
  const post = (url: string, payload: object, from: string) =>
    (turn++ % 2 === 0 ? a : b).app.inject({ method: 'POST', url, payload, remoteAddress: from });

  it(
    'stops a client after 30 failed sign-ins an hour across usernames; others sign in as usual',
    async () => {
      const victims = await Promise.all([0, 1, 2, 3].map(() => createTestUser(db, { now: clock.now() })));
      // Spraying one password over many usernames, known and unknown, a few a second.
      for (let i = 0; i < 30; i++) {
        clock.advance(300);
        const username = i < 4 ? victims[i]!.login : `sprayed-${i}-${randomUUID()}@example.org`;
        const res = await post('/api/v1/authn', { username, password: 'Summer2024!' }, attacker);
        expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      }
      // The 31st is refused before any password is checked, even the right one.
      const refused = await post(
        '/api/v1/authn',
        { username: victims[0]!.login, password: victims[0]!.password },
        attacker,
      );
      expectRateLimited(refused);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
      // Customers elsewhere are not affected.
      for (const victim of victims) {
        const res = await post(
          '/api/v1/authn',
          { username: victim.login, password: victim.password },
          customerAddress,
        );
        expect(res.statusCode).toBe(200);
        expect(tx(res).status).toBe('MFA_REQUIRED');
      }
      // An hour later the client may try again.
      clock.advance(60 * 60_000);
      const later = await post('/api/v1/authn', { username: victims[1]!.login, password: 'nope' }, attacker);
      expect(later.statusCode).toBe(401);
    },
    SLOW,
  );

  it(
    'cannot lock out more than three accounts an hour from one address',
    async () => {
      const victims = await Promise.all([0, 1, 2, 3].map(() => createTestUser(db, { now: clock.now() })));
      const answers: number[] = [];
      for (const victim of victims) {
        for (let i = 0; i < 10; i++) {
          clock.advance(1000);
          answers.push(
            (await post('/api/v1/authn', { username: victim.login, password: 'x' }, attacker)).statusCode,
          );
        }
      }
      expect(answers.filter((s) => s === 401)).toHaveLength(30);
      expect(answers.slice(30).every((s) => s === 429)).toBe(true);
      // The fourth account was never locked: its customer signs in.
      const fourth = victims[3]!;
      const res = await post(
        '/api/v1/authn',
        { username: fourth.login, password: fourth.password },
        customerAddress,
      );
      expect(res.statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'limits forgotten-password and unlock requests to 20 an hour per address, together',
    async () => {
      for (let i = 0; i < 20; i++) {
        const url = i % 2 === 0 ? '/api/v1/authn/recovery/password' : '/api/v1/authn/recovery/unlock';
        const res = await post(url, { username: `someone-${i}@example.org`, factorType: 'EMAIL' }, attacker);
        expect(res.statusCode, `request ${i + 1}`).toBe(200);
      }
      for (const url of ['/api/v1/authn/recovery/password', '/api/v1/authn/recovery/unlock']) {
        expectRateLimited(
          await post(url, { username: 'one-more@example.org', factorType: 'EMAIL' }, attacker),
        );
      }
      const elsewhere = await post(
        '/api/v1/authn/recovery/unlock',
        { username: 'one-more@example.org', factorType: 'EMAIL' },
        customerAddress,
      );
      expect(elsewhere.statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'limits codes sent to 30 an hour per address, whatever the accounts',
    async () => {
      const users = await Promise.all([0, 1, 2, 3].map(() => createTestUser(db, { now: clock.now() })));
      let sent = 0;
      const sendFor = async (user: (typeof users)[number]) => {
        const started = tx(
          await post('/api/v1/authn', { username: user.login, password: user.password }, attacker),
        );
        if (started.status !== 'MFA_REQUIRED') throw new Error(started.status);
        const factor = started._embedded.factors.find((f) => f.factorType === 'sms')!;
        const url = `/api/v1/authn/factors/${factor.id}/verify`;
        const results: LightMyRequestResponse[] = [];
        results.push(await post(url, { stateToken: started.stateToken }, attacker));
        for (let i = 0; i < 4; i++) {
          clock.advance(31_000);
          results.push(await post(`${url}/resend`, { stateToken: started.stateToken }, attacker));
        }
        return results;
      };
      // Three accounts, two sign-ins each, five codes each: 30 codes, every one sent.
      for (const user of users.slice(0, 3)) {
        for (let round = 0; round < 2; round++) {
          for (const res of await sendFor(user)) {
            expect(res.statusCode).toBe(200);
            sent++;
          }
        }
      }
      expect(sent).toBe(30);
      // A fourth account, within its own limits: refused for the address.
      const [first] = await sendFor(users[3]!);
      expectRateLimited(first!);
    },
    SLOW,
  );
});
