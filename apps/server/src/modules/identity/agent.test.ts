import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { createTestUser, outbox } from '../../../test/identity-support';
import { openDb, type Db } from '../../platform/db';

/*
 * Issue 41: the identity service acting for a customer on the contact centre's behalf, at the service's
 * edges (the console's own tests drive it over HTTP): what it says of an account, the outcomes that do
 * nothing, and the audit rows naming the staff member only when one acts. Each test has accounts of its
 * own, so it runs on a shared PostgreSQL server too.
 */
const variants: Array<{ name: string; env: () => Record<string, string>; db?: () => Promise<Db> }> = [
  { name: 'embedded database', env: () => ({}) },
];
if (process.env.DATABASE_URL) {
  variants.push({
    name: 'PostgreSQL',
    env: () => ({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
    db: () => openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 4 }),
  });
}

const agent = { onBehalfOf: 'staff:someone', reason: 'Ticket 77' };

describe.each(variants)('the identity service for the contact centre ($name)', (variant) => {
  let t: TestContext;
  let sharedDb: Db | undefined;
  let user: Awaited<ReturnType<typeof createTestUser>>;

  beforeEach(async () => {
    sharedDb ??= variant.db ? await variant.db() : undefined;
    t = await createTestApp(variant.env(), sharedDb ? { db: sharedDb } : {});
    user = await createTestUser(t.db, { now: t.clock.now(), landline: true });
  });
  afterEach(() => t.close());
  afterAll(async () => {
    await sharedDb?.close();
  });

  const identity = () => t.app.ctx.services.identity;
  const rows = async (eventId: string) =>
    (
      await t.db.query<{ on_behalf_of: string | null; details: Record<string, unknown> }>(
        'SELECT on_behalf_of, details FROM audit_event WHERE customer_id = $1 AND event_id = $2 ORDER BY id',
        [user.customerId, eventId],
      )
    ).rows;

  it('says what an account has, by kind and masked, and nothing for a customer without one', async () => {
    expect(await identity().accountForStaff('T-nobody')).toBeNull();
    const account = await identity().accountForStaff(user.customerId);
    expect(account).toEqual({
      status: 'ACTIVE',
      lockedUntil: null,
      lastSignInAt: null,
      activationSentAt: null,
      factors: [
        {
          kind: 'text',
          destination: `+44 XXXX XXX${user.mobile!.slice(-3)}`,
          count: 1,
          addedAt: expect.any(Date),
        },
        {
          kind: 'call',
          destination: `+44 XXXX XXX${user.mobile!.slice(-3)}`,
          count: 1,
          addedAt: expect.any(Date),
        },
        {
          kind: 'call',
          destination: `+44 XXXX XXX${user.landline!.slice(-3)}`,
          count: 1,
          addedAt: expect.any(Date),
        },
      ],
    });
    expect(await identity().customerIdOfLogin(` ${user.login.toUpperCase()} `)).toBe(user.customerId);
    expect(await identity().customerIdOfLogin('nobody@example.org')).toBeNull();
  });

  it('removes only active factors, each emailed; an app still being set up goes quietly and alone is nothing', async () => {
    await identity().enrolTotp(user.customerId);
    expect(
      await identity().removeFactorsForCustomer(user.customerId, ['authenticator-app'], { agent }),
    ).toEqual({
      removed: 0,
    });
    const enrolment = await identity().enrolTotp(user.customerId);
    await identity().activateTotp(
      user.customerId,
      enrolment.id,
      TOTP.generate({ secret: Secret.fromBase32(enrolment.key), timestamp: t.clock.now().getTime() }),
    );
    expect(
      await identity().removeFactorsForCustomer(user.customerId, ['authenticator-app', 'passkeys'], {
        agent,
      }),
    ).toEqual({ removed: 1 });
    expect(await rows('identity.factor.app-removed')).toEqual([
      {
        on_behalf_of: 'staff:someone',
        details: { factorType: 'totp', factorId: enrolment.id, reason: 'Ticket 77' },
      },
    ]);
    expect((await outbox(t.app, user.login)).filter((m) => m.kind === 'security-app-removed')).toHaveLength(
      1,
    );
    expect(await identity().listSignInMethods(user.customerId)).toHaveLength(3);
    expect(await identity().removeFactorsForCustomer('T-nobody', ['backup-codes'], { agent })).toEqual({
      removed: 0,
    });
  });

  it('unlocks only a locked account, and names the staff member only when one acts', async () => {
    expect(await identity().unlockForCustomer(user.customerId, { agent })).toBe('not-locked');
    expect(await identity().unlockForCustomer('T-nobody', { agent })).toBe('no-account');
    await t.db.query('UPDATE identity_user SET locked_until = $2 WHERE customer_id = $1', [
      user.customerId,
      new Date(t.clock.now().getTime() + 60_000),
    ]);
    expect((await identity().accountForStaff(user.customerId))?.lockedUntil).toEqual(
      new Date(t.clock.now().getTime() + 60_000),
    );
    expect(await identity().unlockForCustomer(user.customerId, { agent })).toBe('unlocked');
    expect(await rows('identity.unlock')).toEqual([
      { on_behalf_of: 'staff:someone', details: { reason: 'Ticket 77' } },
    ]);
    // The customer's own steps write no one on their behalf.
    await identity().createBackupCodes(user.customerId);
    expect(await rows('identity.factor.backup-codes-created')).toEqual([
      { on_behalf_of: null, details: expect.not.objectContaining({ reason: expect.anything() }) },
    ]);
  });

  it('changes the sign-in email without a code, refusing the same address and one another account has', async () => {
    const other = await createTestUser(t.db, { now: t.clock.now() });
    const noop = async () => undefined;
    expect(await identity().changeLoginForCustomer(user.customerId, user.login.toUpperCase(), noop)).toEqual({
      ok: false,
      refused: 'same',
    });
    expect(await identity().changeLoginForCustomer(user.customerId, other.login, noop)).toEqual({
      ok: false,
      refused: 'in-use',
    });
    expect(await identity().changeLoginForCustomer('T-nobody', 'x@example.org', noop)).toEqual({
      ok: false,
      refused: 'no-account',
    });
    const fresh = `moved-${randomUUID().slice(0, 8)}@example.org`;
    // What runs alongside may undo it all.
    await expect(
      identity().changeLoginForCustomer(user.customerId, fresh, async () => {
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await identity().getUserByCustomerId(user.customerId))?.login).toBe(user.login);
    const changed = await identity().changeLoginForCustomer(
      user.customerId,
      ` ${fresh.toUpperCase()} `,
      noop,
    );
    expect(changed).toMatchObject({ ok: true, previous: user.login, value: fresh });
    expect((await identity().getUserByCustomerId(user.customerId))?.login).toBe(fresh);
  });
});
