import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { openDb, type Db } from '../../platform/db';
import {
  createTestUser,
  latestCode,
  latestLinkToken,
  post,
  signIn,
  tx,
} from '../../../test/identity-support';

/*
 * Lockout is per account and shared by every instance: these run on the embedded database, and also on
 * Redis counters (REDIS_URL) and a PostgreSQL server (DATABASE_URL) when those are set.
 */
const variants: Array<{ name: string; env: () => Record<string, string>; db?: () => Promise<Db> }> = [
  { name: 'embedded database', env: () => ({}) },
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
    // Counters of each test alone: the per-address failure limit would otherwise count every test's
    // failures (all from one address, on clocks that all start at one instant) in the shared database.
    env: () => ({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
    db: () => openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 4 }),
  });
}

describe.each(variants)('account lockout ($name)', (variant) => {
  let t: TestContext;
  let sharedDb: Db | undefined;
  let user: Awaited<ReturnType<typeof createTestUser>>;

  beforeEach(async () => {
    sharedDb ??= variant.db ? await variant.db() : undefined;
    t = await createTestApp(variant.env(), sharedDb ? { db: sharedDb } : {});
    user = await createTestUser(t.db, { now: t.clock.now() });
  });
  afterEach(() => t.close());
  afterAll(async () => {
    await sharedDb?.close();
  });

  // One attempt a second keeps under the per-username rate limit.
  async function attempt(password: string) {
    t.clock.advance(1000);
    return post(t.app, '/api/v1/authn', { username: user.login, password });
  }

  async function failPasswords(n: number) {
    for (let i = 0; i < n; i++) expect((await attempt('not-the-password')).statusCode).toBe(401);
  }

  async function auditEvents(eventId: string) {
    const { rows } = await t.db.query<{ failure_reason: string | null }>(
      'SELECT failure_reason FROM audit_event WHERE customer_id = $1 AND event_id = $2 ORDER BY id',
      [user.customerId, eventId],
    );
    return rows;
  }

  it('locks the account for 30 minutes after 10 consecutive failures, then lets it in again', async () => {
    await failPasswords(9);
    expect((await attempt(user.password)).statusCode).toBe(200);
    await failPasswords(1);
    // 9 + 1: a correct password alone does not end the run of failures (only a full sign-in does).
    const locked = await attempt(user.password);
    expect(locked.statusCode).toBe(401);
    expect(locked.json().errorCode).toBe('E0000004');
    expect(await auditEvents('identity.lockout')).toEqual([{ failure_reason: 'PASSWORD_FAILURES' }]);

    t.clock.advance(30 * 60_000 - 5000);
    expect((await attempt(user.password)).statusCode).toBe(401);
    t.clock.advance(5000);
    expect(tx(await attempt(user.password)).status).toBe('MFA_REQUIRED');
  });

  it('counts wrong codes as failures too, and ends the open sign-in when the lock falls', async () => {
    await failPasswords(7);
    t.clock.advance(1000);
    const { stateToken, factors } = await signIn(t.app, user.login, user.password);
    const sms = factors.find((f) => f.factorType === 'sms')!;
    await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken });
    const code = await latestCode(t.app, user.mobile!);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      expect(
        (await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken, passCode: wrong }))
          .statusCode,
      ).toBe(403);
    }
    expect(await auditEvents('identity.lockout')).toEqual([{ failure_reason: 'CODE_FAILURES' }]);
    const after = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken, passCode: code });
    expect(after.statusCode).toBe(401);
    expect(after.json().errorCode).toBe('E0000011');
    expect((await attempt(user.password)).statusCode).toBe(401);
  });

  it('starts counting again after a completed sign-in', async () => {
    await failPasswords(9);
    t.clock.advance(1000);
    const { stateToken, factors } = await signIn(t.app, user.login, user.password);
    const sms = factors.find((f) => f.factorType === 'sms')!;
    await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken });
    const done = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
      stateToken,
      passCode: await latestCode(t.app, user.mobile!),
    });
    expect(tx(done).status).toBe('SUCCESS');
    await failPasswords(9);
    expect(tx(await attempt(user.password)).status).toBe('MFA_REQUIRED');
  });

  it('lifts the lock when the customer resets their password', async () => {
    await failPasswords(10);
    expect((await attempt(user.password)).statusCode).toBe(401);

    const recovery = await post(t.app, '/api/v1/authn/recovery/password', {
      username: user.login,
      factorType: 'EMAIL',
    });
    expect(recovery.statusCode).toBe(200);
    const token = await latestLinkToken(t.app, user.login, 'password-reset');
    const reset = tx(await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token }));
    expect(reset.status).toBe('PASSWORD_RESET');
    if (reset.status !== 'PASSWORD_RESET') return;
    const newPassword = 'Kettle-Orchard-Lantern-77';
    const mfa = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', {
        stateToken: reset.stateToken,
        newPassword,
      }),
    );
    expect(mfa.status).toBe('MFA_REQUIRED');
    if (mfa.status !== 'MFA_REQUIRED') return;
    const sms = mfa._embedded.factors.find((f) => f.factorType === 'sms')!;
    await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken: reset.stateToken });
    const done = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
      stateToken: reset.stateToken,
      passCode: await latestCode(t.app, user.mobile!),
    });
    expect(tx(done).status).toBe('SUCCESS');

    expect(tx(await attempt(newPassword)).status).toBe('MFA_REQUIRED');
    expect((await attempt(user.password)).statusCode).toBe(401);
  });

  it('keeps no state for unknown usernames', async () => {
    const count = async () => {
      const { rows } = await t.db.query<{ users: number; transactions: number }>(
        `SELECT (SELECT count(*)::int FROM identity_user) AS users, (SELECT count(*)::int FROM identity_transaction) AS transactions`,
      );
      return rows[0];
    };
    const before = await count();
    const ghost = `ghost-${randomUUID()}@example.org`;
    for (let i = 0; i < 12; i++) {
      t.clock.advance(1000);
      expect(
        (await post(t.app, '/api/v1/authn', { username: ghost, password: 'whatever-it-is' })).statusCode,
      ).toBe(401);
    }
    const { rows } = await t.db.query('SELECT 1 FROM identity_user WHERE login = $1', [ghost]);
    expect(rows).toHaveLength(0);
    if (!sharedDb) expect(await count()).toEqual(before);
  });
});
