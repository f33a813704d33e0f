import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, type TestContext } from '../../../test/helpers';
import { signIn as signInDemo } from '../../../test/sign-in';
import { ManualClock } from '../../platform/clock';
import { HttpError } from '../../platform/errors';
import { openDb, type Db } from '../../platform/db';
import { identityLimits } from './authn.service';
import { openSecret } from './mfa/secret-box';
import {
  createTestUser,
  latestCode,
  margaret,
  outbox,
  post,
  signIn,
  tx,
} from '../../../test/identity-support';

/*
 * Issue 25, first slice: an authenticator app (TOTP, RFC 6238) and backup codes as second factors. Codes are
 * computed here with the same library from the key the enrolment answers, at the test clock's time. On the
 * embedded database, and on PostgreSQL too when DATABASE_URL is set (each test has accounts of its own).
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

const STEP_MS = 30_000;
/** The code an app shows for `key` at `at`, `steps` time steps away. */
const codeAt = (key: string, at: Date, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: at.getTime() + steps * STEP_MS });
const otherCode = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

type User = Awaited<ReturnType<typeof createTestUser>>;

describe.each(variants)('authenticator app and backup codes ($name)', (variant) => {
  let t: TestContext;
  let sharedDb: Db | undefined;
  let user: User;

  beforeEach(async () => {
    sharedDb ??= variant.db ? await variant.db() : undefined;
    t = await createTestApp(variant.env(), sharedDb ? { db: sharedDb } : {});
    user = await createTestUser(t.db, { now: t.clock.now() });
  });
  afterEach(() => t.close());
  afterAll(async () => {
    await sharedDb?.close();
  });

  const identity = () => t.app.ctx.services.identity;

  /** Enrols and confirms an app for `who`; answers the enrolment (its key). */
  async function activeApp(who: User = user) {
    const enrolment = await identity().enrolTotp(who.customerId);
    await identity().activateTotp(who.customerId, enrolment.id, codeAt(enrolment.key, t.clock.now()));
    return enrolment;
  }

  /** Password, then the app's factor from MFA_REQUIRED: its id and the stateToken. */
  async function toAppFactor(who: User = user, type = 'token:software:totp') {
    t.clock.advance(1000);
    const { stateToken, factors } = await signIn(t.app, who.login, who.password);
    const factor = factors.find((f) => f.factorType === type);
    if (!factor) throw new Error(`no ${type} factor offered`);
    return { stateToken, factor };
  }

  const verify = (factorId: string, stateToken: string, passCode: string) =>
    post(t.app, `/api/v1/authn/factors/${factorId}/verify`, { stateToken, passCode });

  async function refusal(promise: Promise<unknown>) {
    try {
      await promise;
    } catch (error) {
      if (error instanceof HttpError) return { status: error.statusCode, code: error.code };
      throw error;
    }
    throw new Error('expected a refusal');
  }

  it('enrols, confirms with a first code and signs in with the app (RFC 6238: SHA-1, 6 digits, 30 s)', async () => {
    const enrolment = await identity().enrolTotp(user.customerId);
    expect(enrolment.status).toBe('PENDING_ACTIVATION');
    expect(enrolment.key).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(enrolment.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret: enrolment.key,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });

    // Until the first code confirms it, the app is not offered at sign-in.
    t.clock.advance(1000);
    const before = await signIn(t.app, user.login, user.password);
    expect(before.factors.map((f) => f.factorType)).toEqual(['sms', 'call']);

    expect(await refusal(identity().activateTotp(user.customerId, enrolment.id, '000000x'))).toEqual({
      status: 400,
      code: 'MFA_CODE_INVALID',
    });
    const active = await identity().activateTotp(
      user.customerId,
      enrolment.id,
      codeAt(enrolment.key, t.clock.now()),
    );
    expect(active).toMatchObject({ id: enrolment.id, type: 'totp', status: 'ACTIVE' });

    t.clock.advance(STEP_MS);
    const { stateToken, factor } = await toAppFactor();
    expect(factor).toMatchObject({
      id: enrolment.id,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
      vendorName: 'GOOGLE',
    });
    const res = await verify(factor.id, stateToken, codeAt(enrolment.key, t.clock.now()));
    expect(res.statusCode).toBe(200);
    const body = tx(res);
    if (body.status !== 'SUCCESS') throw new Error(res.body);
    const { rows } = await t.db.query<{ amr: string[] }>(
      'SELECT amr FROM identity_session_token WHERE user_id = $1',
      [user.id],
    );
    expect(rows.map((r) => r.amr)).toEqual([['pwd', 'otp', 'mfa']]);
  });

  it('accepts a code once: the same code, or one of an earlier step, is refused afterwards', async () => {
    const { key } = await activeApp();
    t.clock.advance(5 * 60_000);
    const code = codeAt(key, t.clock.now());
    const first = await toAppFactor();
    expect((await verify(first.factor.id, first.stateToken, code)).statusCode).toBe(200);

    const second = await toAppFactor();
    const replay = await verify(second.factor.id, second.stateToken, code);
    expect(replay.statusCode).toBe(403);
    expect(replay.json()).toMatchObject({ errorCode: 'E0000068' });
    // The previous step's code, still within the drift allowed, is older than the one used: refused too.
    expect(
      (await verify(second.factor.id, second.stateToken, codeAt(key, t.clock.now(), -1))).statusCode,
    ).toBe(403);
    // The next step's code is new.
    t.clock.advance(STEP_MS);
    expect((await verify(second.factor.id, second.stateToken, codeAt(key, t.clock.now()))).statusCode).toBe(
      200,
    );
  });

  it('allows one step of clock drift either way, not two', async () => {
    const { key } = await activeApp();
    t.clock.advance(5 * 60_000);
    const a = await toAppFactor();
    expect((await verify(a.factor.id, a.stateToken, codeAt(key, t.clock.now(), -2))).statusCode).toBe(403);
    expect((await verify(a.factor.id, a.stateToken, codeAt(key, t.clock.now(), 2))).statusCode).toBe(403);
    expect((await verify(a.factor.id, a.stateToken, codeAt(key, t.clock.now(), -1))).statusCode).toBe(200);
    t.clock.advance(5 * 60_000);
    const b = await toAppFactor();
    expect((await verify(b.factor.id, b.stateToken, codeAt(key, t.clock.now(), 1))).statusCode).toBe(200);
  });

  it('counts wrong app codes towards the lockout, as wrong text codes do', async () => {
    const { key } = await activeApp();
    const { stateToken, factor } = await toAppFactor();
    const wrong = otherCode(codeAt(key, t.clock.now()));
    for (let i = 1; i < identityLimits.lockoutThreshold; i++) {
      t.clock.advance(1000);
      expect((await verify(factor.id, stateToken, wrong)).statusCode).toBe(403);
    }
    t.clock.advance(1000);
    const last = await verify(factor.id, stateToken, wrong);
    expect(last.statusCode).toBe(403);
    // The lock ended the sign-in, and the right code no longer helps.
    const after = await verify(factor.id, stateToken, codeAt(key, t.clock.now()));
    expect(after.statusCode).toBe(401);
    const locked = await t.db.query<{ locked_until: Date | null }>(
      'SELECT locked_until FROM identity_user WHERE id = $1',
      [user.id],
    );
    expect(locked.rows[0]!.locked_until).not.toBeNull();
    const audits = await t.db.query<{ failure_reason: string }>(
      `SELECT failure_reason FROM audit_event WHERE customer_id = $1 AND event_id = 'identity.lockout'`,
      [user.customerId],
    );
    expect(audits.rows.map((r) => r.failure_reason)).toEqual(['CODE_FAILURES']);
    // A locked account cannot confirm an app either.
    const enrolment = await identity().enrolTotp(user.customerId);
    expect(
      await refusal(
        identity().activateTotp(user.customerId, enrolment.id, codeAt(enrolment.key, t.clock.now())),
      ),
    ).toEqual({ status: 429, code: 'ACCOUNT_LOCKED' });
  });

  it('keeps the secret encrypted in the table, readable only with the key and on its own row', async () => {
    const { id, key } = await activeApp();
    const { rows } = await t.db.query<{ secret_encrypted: string }>(
      'SELECT secret_encrypted FROM identity_authenticator WHERE id = $1',
      [id],
    );
    const stored = rows[0]!.secret_encrypted;
    const secretHex = Secret.fromBase32(key).hex.toLowerCase();
    expect(stored).not.toContain(key);
    expect(stored.toLowerCase()).not.toContain(secretHex);
    expect(Buffer.from(stored).toString('hex')).not.toContain(secretHex);
    expect(openSecret(t.config.mfaEncryptionKey, stored, id).toString('hex')).toBe(secretHex);
    expect(() => openSecret(Buffer.alloc(32, 1), stored, id)).toThrow();
    expect(() => openSecret(t.config.mfaEncryptionKey, stored, 'ostSomeOtherRow')).toThrow();
  });

  it("refuses another customer's factor: 404 at verify, at confirm and at removal", async () => {
    const other = await createTestUser(t.db, { now: t.clock.now() });
    const { id } = await activeApp(other);
    t.clock.advance(1000);
    const mine = await signIn(t.app, user.login, user.password);
    const res = await verify(id, mine.stateToken, '123456');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 'E0000007' });
    expect(await refusal(identity().activateTotp(user.customerId, id, '123456'))).toMatchObject({
      status: 404,
    });
    expect(await refusal(identity().removeSignInMethod(user.customerId, id))).toMatchObject({ status: 404 });
    expect((await identity().listSignInMethods(other.customerId)).map((m) => m.type)).toEqual([
      'sms',
      'call',
      'totp',
    ]);
  });

  it('accepts a backup code once, emails the customer, and regenerating voids the old set', async () => {
    const { codes } = await identity().createBackupCodes(user.customerId);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes)
      expect(code).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}$/);
    // Stored hashed: no code appears in the table.
    const stored = await t.db.query<{ code_hash: string }>(
      'SELECT b.code_hash FROM identity_backup_code b JOIN identity_authenticator a ON a.id = b.factor_id WHERE a.user_id = $1',
      [user.id],
    );
    expect(stored.rows).toHaveLength(10);
    for (const row of stored.rows)
      for (const code of codes) expect(row.code_hash).not.toContain(code.replace('-', ''));

    const first = await toAppFactor(user, 'backup_code');
    expect(first.factor).toMatchObject({ factorType: 'backup_code', profile: { codesLeft: 10 } });
    // Typed in lower case with a space: still the code.
    const typed = codes[0]!.toLowerCase().replace('-', ' ');
    expect((await verify(first.factor.id, first.stateToken, typed)).statusCode).toBe(200);
    const used = (await outbox(t.app, user.login)).filter((m) => m.kind === 'security-backup-code-used');
    expect(used).toHaveLength(1);
    expect(used[0]!.body).toContain('If it was not you');

    const second = await toAppFactor(user, 'backup_code');
    expect(second.factor).toMatchObject({ profile: { codesLeft: 9 } });
    const again = await verify(second.factor.id, second.stateToken, codes[0]!);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ errorCode: 'E0000068' });

    const fresh = await identity().createBackupCodes(user.customerId);
    expect((await verify(second.factor.id, second.stateToken, codes[1]!)).statusCode).toBe(403);
    expect((await verify(second.factor.id, second.stateToken, fresh.codes[0]!)).statusCode).toBe(200);
    const failures = await t.db.query<{ failed_attempts: number }>(
      'SELECT failed_attempts FROM identity_user WHERE id = $1',
      [user.id],
    );
    // Two wrong codes counted, then the success reset the count.
    expect(Number(failures.rows[0]!.failed_attempts)).toBe(0);
    const wrongAudits = await t.db.query(
      `SELECT 1 FROM audit_event WHERE customer_id = $1 AND event_id = 'identity.mfa.failed'`,
      [user.customerId],
    );
    expect(wrongAudits.rowCount).toBe(2);
  });

  it('lists the factor last used first at sign-in; a customer who never used one sees text first', async () => {
    const who = await createTestUser(t.db, { landline: true, now: t.clock.now() });
    const order = async () => {
      t.clock.advance(1000);
      return (await signIn(t.app, who.login, who.password)).factors.map((f) => f.factorType);
    };
    expect(await order()).toEqual(['sms', 'call', 'call']);

    // A voice call to the landline signs in: it comes first next time.
    const { stateToken, factors } = await signIn(t.app, who.login, who.password);
    const landline = factors.filter((f) => f.factorType === 'call').at(-1)!;
    expect(
      (await post(t.app, `/api/v1/authn/factors/${landline.id}/verify`, { stateToken })).statusCode,
    ).toBe(200);
    const passCode = await latestCode(t.app, who.landline!);
    expect(
      (await post(t.app, `/api/v1/authn/factors/${landline.id}/verify`, { stateToken, passCode })).statusCode,
    ).toBe(200);
    const afterCall = await signIn(t.app, who.login, who.password);
    expect(afterCall.factors[0]!.id).toBe(landline.id);

    // Backup codes used later come first; the unused app (never used to sign in) keeps its place.
    const { codes } = await identity().createBackupCodes(who.customerId);
    const backup = await toAppFactor(who, 'backup_code');
    expect((await verify(backup.factor.id, backup.stateToken, codes[0]!)).statusCode).toBe(200);
    expect(await order()).toEqual(['backup_code', 'call', 'sms', 'call']);

    // And the app, once it signs in.
    const enrolment = await activeApp(who);
    t.clock.advance(STEP_MS);
    const app = await toAppFactor(who);
    expect(
      (await verify(app.factor.id, app.stateToken, codeAt(enrolment.key, t.clock.now()))).statusCode,
    ).toBe(200);
    expect((await order())[0]).toBe('token:software:totp');
  });

  it('emails the customer when an app is added or removed and when backup codes are created', async () => {
    const { id } = await activeApp();
    await identity().createBackupCodes(user.customerId);
    await identity().removeSignInMethod(user.customerId, id);
    const kinds = (await outbox(t.app, user.login)).map((m) => m.kind).sort();
    expect(kinds).toEqual(['security-app-added', 'security-app-removed', 'security-backup-codes-created']);
    const events = await t.db.query<{ event_id: string }>(
      `SELECT event_id FROM audit_event WHERE customer_id = $1 AND event_id LIKE 'identity.factor.%' ORDER BY id`,
      [user.customerId],
    );
    expect(events.rows.map((r) => r.event_id)).toEqual([
      'identity.factor.enrol',
      'identity.factor.app-added',
      'identity.factor.backup-codes-created',
      'identity.factor.app-removed',
    ]);
    t.clock.advance(1000);
    const after = await signIn(t.app, user.login, user.password);
    expect(after.factors.map((f) => f.factorType)).toEqual(['sms', 'call', 'backup_code']);
  });
});

describe('authenticator app on two instances', () => {
  let db: Db;
  let clock: ManualClock;
  let a: TestContext;
  let b: TestContext;
  let user: User;

  beforeEach(async () => {
    db = await createTestDb();
    clock = new ManualClock();
    a = await createTestApp({}, { db, clock });
    b = await createTestApp({}, { db, clock });
    user = await createTestUser(db, { now: clock.now() });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await db.close();
  });

  it('accepts a code on one instance once, and counts wrong codes on both towards one lockout', async () => {
    const enrolment = await a.app.ctx.services.identity.enrolTotp(user.customerId);
    await b.app.ctx.services.identity.activateTotp(
      user.customerId,
      enrolment.id,
      codeAt(enrolment.key, clock.now()),
    );
    clock.advance(5 * 60_000);
    const code = codeAt(enrolment.key, clock.now());

    clock.advance(1000);
    const one = await signIn(a.app, user.login, user.password);
    const factorId = one.factors.find((f) => f.factorType === 'token:software:totp')!.id;
    expect(
      (
        await post(a.app, `/api/v1/authn/factors/${factorId}/verify`, {
          stateToken: one.stateToken,
          passCode: code,
        })
      ).statusCode,
    ).toBe(200);
    clock.advance(1000);
    const two = await signIn(b.app, user.login, user.password);
    expect(
      (
        await post(b.app, `/api/v1/authn/factors/${factorId}/verify`, {
          stateToken: two.stateToken,
          passCode: code,
        })
      ).statusCode,
    ).toBe(403);

    // Nine more wrong codes, alternating instances: ten in all lock the account.
    for (let i = 1; i < identityLimits.lockoutThreshold; i++) {
      clock.advance(1000);
      const app = i % 2 === 0 ? a.app : b.app;
      expect(
        (
          await post(app, `/api/v1/authn/factors/${factorId}/verify`, {
            stateToken: two.stateToken,
            passCode: otherCode(code),
          })
        ).statusCode,
      ).toBe(403);
    }
    const locked = await db.query<{ locked_until: Date | null }>(
      'SELECT locked_until FROM identity_user WHERE id = $1',
      [user.id],
    );
    expect(locked.rows[0]!.locked_until).not.toBeNull();
  });
});

describe('sign-in methods over the portal API', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('lets a signed-in customer set up, list and remove an app and create backup codes; not for another customer', async () => {
    const me = await signInDemo(t, margaret.email);
    const call = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object) =>
      t.app.inject({
        method,
        url: path,
        headers: { authorization: me.authorization },
        ...(payload ? { payload } : {}),
      });
    const base = `/api/v1/sign-in-methods/${me.customerId}`;

    const enrolled = await call('POST', `${base}/totp`);
    expect(enrolled.statusCode).toBe(200);
    const { id, key } = enrolled.json<{ id: string; key: string }>();
    const wrong = await call('POST', `${base}/totp/${id}/activate`, {
      passCode: otherCode(codeAt(key, t.clock.now())),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'MFA_CODE_INVALID' });
    const ok = await call('POST', `${base}/totp/${id}/activate`, { passCode: codeAt(key, t.clock.now()) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id, type: 'totp', status: 'ACTIVE' });

    const backup = await call('POST', `${base}/backup-codes`);
    expect(backup.statusCode).toBe(200);
    expect(backup.json<{ codes: string[] }>().codes).toHaveLength(10);

    const listed = await call('GET', base);
    expect(listed.json<{ methods: Array<{ type: string }> }>().methods.map((m) => m.type)).toEqual([
      'sms',
      'call',
      'call',
      'totp',
      'backup_codes',
    ]);
    expect((await call('GET', `/api/v1/sign-in-methods/C1000002`)).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/${id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `${base}/${id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: base })).statusCode).toBe(401);
  });
});
