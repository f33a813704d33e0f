import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { openDb, type Db } from '../../platform/db';
import {
  comparableBody,
  comparableHeaders,
  createTestUser,
  latestLinkToken,
  outbox,
  post,
  tx,
} from '../../../test/identity-support';

/*
 * Self-service unlock (Okta's recovery/unlock): a locked customer gets an emailed link that unlocks the
 * account; anybody asking about any other username gets the same answer, in the same time, and no email.
 */
const variants: Array<{ name: string; db?: () => Promise<Db> }> = [{ name: 'embedded database' }];
if (process.env.DATABASE_URL) {
  variants.push({
    name: 'PostgreSQL',
    db: () => openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 4 }),
  });
}

const unlockLink = async (t: TestContext, email: string) => {
  const [message] = (await outbox(t.app, email)).filter((m) => m.kind === 'unlock');
  const match = message && /https?:\/\/\S+\/login\?unlock=([A-Za-z0-9_%-]+)/.exec(message.body);
  if (!match?.[1]) throw new Error(`no unlock link emailed to ${email}`);
  return decodeURIComponent(match[1]);
};

/** Tens of sign-ins (argon2 each) per test, on a machine that may be busy. */
const SLOW = 120_000;

describe.each(variants)('self-service unlock ($name)', (variant) => {
  let t: TestContext;
  let sharedDb: Db | undefined;
  let locked: Awaited<ReturnType<typeof createTestUser>>;
  let open: Awaited<ReturnType<typeof createTestUser>>;

  const signIn = (username: string, password: string) => {
    t.clock.advance(1000);
    return post(t.app, '/api/v1/authn', { username, password });
  };
  const askUnlock = (username: string) =>
    post(t.app, '/api/v1/authn/recovery/unlock', { username, factorType: 'EMAIL' });
  const redeem = (recoveryToken: string) => post(t.app, '/api/v1/authn/recovery/token', { recoveryToken });

  beforeEach(async () => {
    sharedDb ??= variant.db ? await variant.db() : undefined;
    // Counters of this test alone: the PostgreSQL server is shared by every test and every run.
    t = await createTestApp({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }, sharedDb ? { db: sharedDb } : {});
    locked = await createTestUser(t.db, { now: t.clock.now() });
    open = await createTestUser(t.db, { now: t.clock.now() });
    for (let i = 0; i < 10; i++)
      expect((await signIn(locked.login, 'not-the-password')).statusCode).toBe(401);
    // Locked: even the right password fails.
    expect((await signIn(locked.login, locked.password)).statusCode).toBe(401);
  }, SLOW);
  afterEach(() => t.close());
  afterAll(async () => {
    await sharedDb?.close();
  });

  it(
    'answers locked, unlocked and unknown accounts alike, and emails only the locked one',
    async () => {
      const unknown = `nobody-${randomUUID()}@example.org`;
      const timed = async (username: string) => {
        const started = performance.now();
        const res = await askUnlock(username);
        return { res, ms: performance.now() - started };
      };
      const answers = [await timed(locked.login), await timed(open.login), await timed(unknown)];
      for (const { res, ms } of answers) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          status: 'RECOVERY_CHALLENGE',
          factorResult: 'WAITING',
          factorType: 'EMAIL',
          recoveryType: 'UNLOCK',
        });
        expect(comparableHeaders(res)).toEqual(comparableHeaders(answers[0]!.res));
        // Every answer waits for the same minimum time, email or not.
        expect(ms).toBeGreaterThanOrEqual(145);
      }
      const [email] = (await outbox(t.app, locked.login)).filter((m) => m.kind === 'unlock');
      expect(email).toMatchObject({ subject: 'Unlock your online account' });
      expect(email!.body).toContain('http://localhost:3000/login?unlock=');
      expect((await outbox(t.app, open.login)).filter((m) => m.kind === 'unlock')).toEqual([]);
      expect(await outbox(t.app, unknown)).toEqual([]);
    },
    SLOW,
  );

  it(
    'unlocks the account with the link, once; nobody is signed in by it',
    async () => {
      await askUnlock(locked.login);
      const token = await unlockLink(t, locked.login);
      const used = await redeem(token);
      expect(used.statusCode).toBe(200);
      expect(used.json()).toEqual({ status: 'UNAUTHENTICATED', recoveryType: 'UNLOCK' });
      const again = await redeem(token);
      expect(again.statusCode).toBe(403);
      expect(comparableBody(again)).toMatchObject({ errorCode: 'E0000105' });
      const signedIn = await signIn(locked.login, locked.password);
      expect(signedIn.statusCode).toBe(200);
      expect(tx(signedIn).status).toBe('MFA_REQUIRED');
      // The failure count started again: one wrong password does not lock it again.
      expect((await signIn(locked.login, 'not-the-password')).statusCode).toBe(401);
      expect((await signIn(locked.login, locked.password)).statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'expires the link after 60 minutes, and a newer link voids the older',
    async () => {
      await askUnlock(locked.login);
      const older = await unlockLink(t, locked.login);
      t.clock.advance(1000);
      await askUnlock(locked.login);
      const newer = await unlockLink(t, locked.login);
      expect(newer).not.toBe(older);
      expect((await redeem(older)).statusCode).toBe(403);
      t.clock.advance(60 * 60_000);
      // The lockout (30 minutes) has run out by now; the link has too, and changes nothing.
      const expired = await redeem(newer);
      expect(expired.statusCode).toBe(403);
      expect(comparableBody(expired)).toMatchObject({ errorCode: 'E0000105' });
    },
    SLOW,
  );

  it(
    'is no password reset: an unlock link never gives PASSWORD_RESET, a reset link never unlocks',
    async () => {
      await askUnlock(locked.login);
      const unlock = await unlockLink(t, locked.login);
      await post(t.app, '/api/v1/authn/recovery/password', { username: locked.login, factorType: 'EMAIL' });
      const reset = await latestLinkToken(t.app, locked.login, 'password-reset');
      const resetAnswer = tx(await redeem(reset));
      expect(resetAnswer.status).toBe('PASSWORD_RESET');
      // The reset transaction alone (no new password, no code) leaves the account locked.
      expect((await signIn(locked.login, locked.password)).statusCode).toBe(401);
      expect(tx(await redeem(unlock)).status).toBe('UNAUTHENTICATED');
    },
    SLOW,
  );

  it(
    'emails at most 3 unlock links an hour per account, answering the same throughout',
    async () => {
      for (let i = 0; i < 5; i++) {
        const res = await askUnlock(locked.login);
        expect(res.statusCode).toBe(200);
        expect(tx(res).status).toBe('RECOVERY_CHALLENGE');
      }
      expect((await outbox(t.app, locked.login)).filter((m) => m.kind === 'unlock')).toHaveLength(3);
    },
    SLOW,
  );

  it(
    'refuses a bad request in Okta envelope',
    async () => {
      const res = await post(t.app, '/api/v1/authn/recovery/unlock', {
        username: locked.login,
        factorType: 'SMS',
      });
      expect(res.statusCode).toBe(400);
      expect(comparableBody(res)).toMatchObject({ errorCode: 'E0000001' });
    },
    SLOW,
  );
});
