import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthnTransaction } from '@portal/contracts';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { openDb, type Db } from '../../platform/db';
import { identityLimits } from './authn.service';
import { createTestUser, latestLinkToken, outbox, post, tx } from '../../../test/identity-support';

/*
 * Okta's enrolment in the authn API (issue 25 point 7, decision 023): a customer with no factor to sign in
 * with is answered MFA_ENROLL after the password, sets up an authenticator app (MFA_ENROLL_ACTIVATE) and
 * finishes signing in with its first code. Codes are computed here from the shared secret the answer
 * gives, at the test clock's time. On the embedded database, and on PostgreSQL when DATABASE_URL is set.
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
const codeAt = (key: string, at: Date, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: at.getTime() + steps * STEP_MS });
const otherCode = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

type User = Awaited<ReturnType<typeof createTestUser>>;
type Tx<S extends AuthnTransaction['status']> = Extract<AuthnTransaction, { status: S }>;

describe.each(variants)('MFA_ENROLL and MFA_ENROLL_ACTIVATE in the authn API ($name)', (variant) => {
  let t: TestContext;
  let sharedDb: Db | undefined;
  let user: User;

  beforeEach(async () => {
    sharedDb ??= variant.db ? await variant.db() : undefined;
    t = await createTestApp(variant.env(), sharedDb ? { db: sharedDb } : {});
    // No mobile and no landline: nothing to send a code to, and no app yet.
    user = await createTestUser(t.db, { mobile: false, now: t.clock.now() });
  });
  afterEach(() => t.close());
  afterAll(async () => {
    await sharedDb?.close();
  });

  async function primary(who: User = user): Promise<Tx<'MFA_ENROLL'>> {
    t.clock.advance(1000);
    const res = await post(t.app, '/api/v1/authn', { username: who.login, password: who.password });
    expect(res.statusCode).toBe(200);
    const body = tx(res);
    if (body.status !== 'MFA_ENROLL') throw new Error(`expected MFA_ENROLL, got ${res.body}`);
    return body;
  }

  async function enrol(stateToken: string): Promise<Tx<'MFA_ENROLL_ACTIVATE'>> {
    const res = await post(t.app, '/api/v1/authn/factors', {
      stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    expect(res.statusCode).toBe(200);
    const body = tx(res);
    if (body.status !== 'MFA_ENROLL_ACTIVATE')
      throw new Error(`expected MFA_ENROLL_ACTIVATE, got ${res.body}`);
    return body;
  }

  const activate = (factorId: string, stateToken: string, passCode?: string) =>
    post(t.app, `/api/v1/authn/factors/${factorId}/lifecycle/activate`, {
      stateToken,
      ...(passCode === undefined ? {} : { passCode }),
    });

  const auditEvents = async (who: User, like: string) =>
    (
      await t.db.query<{ event_id: string; is_success: boolean }>(
        `SELECT event_id, is_success FROM audit_event WHERE customer_id = $1 AND event_id LIKE $2 ORDER BY id`,
        [who.customerId, like],
      )
    ).rows;

  it('answers MFA_ENROLL with the app to set up, enrols it, activates it with a first code and signs in', async () => {
    const start = await primary();
    expect(start._embedded.factors).toEqual([
      {
        factorType: 'token:software:totp',
        provider: 'GOOGLE',
        vendorName: 'GOOGLE',
        status: 'NOT_SETUP',
        enrollment: 'REQUIRED',
        _links: {
          enroll: expect.objectContaining({ href: expect.stringMatching(/\/api\/v1\/authn\/factors$/) }),
        },
      },
    ]);
    expect(start._links.cancel.href).toMatch(/\/api\/v1\/authn\/cancel$/);

    const pending = await enrol(start.stateToken);
    const factor = pending._embedded.factor;
    const activation = factor._embedded.activation;
    expect(factor).toMatchObject({
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
      status: 'PENDING_ACTIVATION',
      profile: { credentialId: user.login },
    });
    expect(activation).toMatchObject({ timeStep: 30, encoding: 'base32', keyLength: 32 });
    expect(activation.sharedSecret).toMatch(/^[A-Z2-7]{32}$/);
    // The QR code is drawn here and travels inline: no address carries the secret, no third party sees it.
    expect(activation._links?.qrcode).toEqual({
      href: expect.stringMatching(/^data:image\/png;base64,/),
      type: 'image/png',
    });
    expect(pending._links.next).toMatchObject({
      name: 'activate',
      href: expect.stringMatching(new RegExp(`/api/v1/authn/factors/${factor.id}/lifecycle/activate$`)),
    });
    expect(pending._links.prev.href).toMatch(/\/api\/v1\/authn\/previous$/);

    // The secret is sealed at rest, never in clear.
    const stored = await t.db.query<{ secret_encrypted: string; status: string }>(
      'SELECT secret_encrypted, status FROM identity_authenticator WHERE id = $1',
      [factor.id],
    );
    expect(stored.rows[0]!.status).toBe('PENDING_ACTIVATION');
    expect(stored.rows[0]!.secret_encrypted).not.toContain(activation.sharedSecret);

    // Introspection shows the same step, with the same secret.
    const again = tx(await post(t.app, '/api/v1/authn/introspect', { stateToken: pending.stateToken }));
    expect(again).toMatchObject({ status: 'MFA_ENROLL_ACTIVATE', _embedded: { factor: { id: factor.id } } });

    const firstCode = codeAt(activation.sharedSecret, t.clock.now());
    const done = await activate(factor.id, pending.stateToken, firstCode);
    expect(done.statusCode).toBe(200);
    expect(tx(done)).toMatchObject({ status: 'SUCCESS', sessionToken: expect.any(String) });
    const row = await t.db.query<{ status: string }>(
      'SELECT status FROM identity_authenticator WHERE id = $1',
      [factor.id],
    );
    expect(row.rows[0]!.status).toBe('ACTIVE');

    // Audited as the profile's enrolment is, and the customer is told by email.
    expect(await auditEvents(user, 'identity.factor.%')).toEqual([
      { event_id: 'identity.factor.enrol', is_success: true },
      { event_id: 'identity.factor.app-added', is_success: true },
    ]);
    expect((await outbox(t.app, user.login)).map((m) => m.kind)).toContain('security-app-added');
    const signIns = await t.db.query<{ details: { mfaSendMethod?: string } }>(
      `SELECT details FROM audit_event WHERE customer_id = $1 AND event_id = 'identity.signin' AND is_success`,
      [user.customerId],
    );
    expect(signIns.rows.map((r) => r.details.mfaSendMethod)).toEqual(['totp']);

    // The next sign-in is MFA_REQUIRED with the app; the code used to activate is not accepted again.
    t.clock.advance(1000);
    const later = tx(await post(t.app, '/api/v1/authn', { username: user.login, password: user.password }));
    if (later.status !== 'MFA_REQUIRED') throw new Error(`expected MFA_REQUIRED, got ${later.status}`);
    expect(later._embedded.factors.map((f) => f.id)).toEqual([factor.id]);
    const replay = await post(t.app, `/api/v1/authn/factors/${factor.id}/verify`, {
      stateToken: later.stateToken,
      passCode: firstCode,
    });
    expect(replay.statusCode).toBe(403);
    expect(replay.json()).toMatchObject({ errorCode: 'E0000068' });
    t.clock.advance(STEP_MS);
    const verified = await post(t.app, `/api/v1/authn/factors/${factor.id}/verify`, {
      stateToken: later.stateToken,
      passCode: codeAt(activation.sharedSecret, t.clock.now()),
    });
    expect(tx(verified).status).toBe('SUCCESS');
  });

  it('refuses a wrong first code (403 E0000068, counted towards the lockout), leaving the app pending', async () => {
    const pending = await enrol((await primary()).stateToken);
    const factor = pending._embedded.factor;
    const right = codeAt(factor._embedded.activation.sharedSecret, t.clock.now());
    const wrong = await activate(factor.id, pending.stateToken, otherCode(right));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ errorCode: 'E0000068', errorSummary: 'Invalid Passcode/Answer' });
    const missing = await activate(factor.id, pending.stateToken);
    expect(missing.statusCode).toBe(403);
    const counted = await t.db.query<{ failed_attempts: number }>(
      'SELECT failed_attempts FROM identity_user WHERE id = $1',
      [user.id],
    );
    expect(Number(counted.rows[0]!.failed_attempts)).toBe(1);
    expect(await auditEvents(user, 'identity.mfa.failed')).toEqual([
      { event_id: 'identity.mfa.failed', is_success: false },
    ]);
    const row = await t.db.query<{ status: string }>(
      'SELECT status FROM identity_authenticator WHERE id = $1',
      [factor.id],
    );
    expect(row.rows[0]!.status).toBe('PENDING_ACTIVATION');
    // Nothing was emailed for an app that does not count yet.
    expect((await outbox(t.app, user.login)).map((m) => m.kind)).not.toContain('security-app-added');
    // The right code still works after a wrong one.
    expect(tx(await activate(factor.id, pending.stateToken, right)).status).toBe('SUCCESS');
  });

  it('locks the account after the tenth wrong first code and ends the transaction', async () => {
    const pending = await enrol((await primary()).stateToken);
    const factor = pending._embedded.factor;
    const wrong = otherCode(codeAt(factor._embedded.activation.sharedSecret, t.clock.now()));
    for (let i = 0; i < identityLimits.lockoutThreshold; i++) {
      const res = await activate(factor.id, pending.stateToken, wrong);
      expect(res.statusCode).toBe(403);
    }
    const after = await activate(factor.id, pending.stateToken, wrong);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ errorCode: 'E0000011' });
    const locks = await auditEvents(user, 'identity.lockout');
    expect(locks).toHaveLength(1);
  });

  it("answers 404 E0000007 for another user's factor id and for an app set up in the profile", async () => {
    const other = await createTestUser(t.db, { mobile: false, now: t.clock.now() });
    const theirs = await enrol((await primary(other)).stateToken);
    const mine = await enrol((await primary()).stateToken);
    const code = codeAt(theirs._embedded.factor._embedded.activation.sharedSecret, t.clock.now());
    const res = await activate(theirs._embedded.factor.id, mine.stateToken, code);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 'E0000007' });
    // An app of this very customer set up from the profile is not this transaction's either.
    const fromProfile = await t.app.ctx.services.identity.enrolTotp(user.customerId);
    const profileCode = codeAt(fromProfile.key, t.clock.now());
    const viaProfile = await activate(fromProfile.id, mine.stateToken, profileCode);
    expect(viaProfile.statusCode).toBe(404);
    // Their app stays pending, counted nothing against either account.
    expect(tx(await activate(theirs._embedded.factor.id, theirs.stateToken, code)).status).toBe('SUCCESS');
    const failures = await t.db.query<{ failed_attempts: number }>(
      'SELECT failed_attempts FROM identity_user WHERE id = $1',
      [user.id],
    );
    expect(Number(failures.rows[0]!.failed_attempts)).toBe(0);
  });

  it('refuses an expired state token (401 E0000011) and the wrong state (403 E0000079)', async () => {
    const start = await primary();
    // Activating before enrolling: the wrong state.
    const early = await activate('ostNOPE', start.stateToken, '123456');
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ errorCode: 'E0000079' });
    const pending = await enrol(start.stateToken);
    // Enrolling twice: the wrong state too.
    const twice = await post(t.app, '/api/v1/authn/factors', {
      stateToken: start.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    expect(twice.statusCode).toBe(403);
    t.clock.advance(identityLimits.stateTokenMs + 1000);
    const factor = pending._embedded.factor;
    const late = await activate(
      factor.id,
      pending.stateToken,
      codeAt(factor._embedded.activation.sharedSecret, t.clock.now()),
    );
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ errorCode: 'E0000011' });
  });

  it('refuses any other factor (400 E0000001) and goes back from MFA_ENROLL_ACTIVATE with prev', async () => {
    const start = await primary();
    for (const body of [
      { factorType: 'sms', provider: 'OKTA' },
      { factorType: 'token:software:totp', provider: 'OKTA' },
      { factorType: 'webauthn', provider: 'FIDO' },
    ]) {
      const res = await post(t.app, '/api/v1/authn/factors', { stateToken: start.stateToken, ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'E0000001' });
    }
    const pending = await enrol(start.stateToken);
    const back = tx(await post(t.app, '/api/v1/authn/previous', { stateToken: start.stateToken }));
    expect(back.status).toBe('MFA_ENROLL');
    // The app being set up is gone; a new enrolment has a new secret.
    const gone = await t.db.query('SELECT 1 FROM identity_authenticator WHERE id = $1', [
      pending._embedded.factor.id,
    ]);
    expect(gone.rows).toHaveLength(0);
    const second = await enrol(start.stateToken);
    expect(second._embedded.factor.id).not.toBe(pending._embedded.factor.id);
    const cancelled = tx(await post(t.app, '/api/v1/authn/cancel', { stateToken: start.stateToken }));
    expect(cancelled.status).toBe('UNAUTHENTICATED');
  });

  it('keeps MFA_REQUIRED for a customer with any factor to use', async () => {
    const withPhone = await createTestUser(t.db, { now: t.clock.now() });
    const res = tx(
      await post(t.app, '/api/v1/authn', { username: withPhone.login, password: withPhone.password }),
    );
    expect(res.status).toBe('MFA_REQUIRED');
    // Enrolling from MFA_REQUIRED is the wrong state.
    const enrolRes = await post(t.app, '/api/v1/authn/factors', {
      stateToken: (res as Tx<'MFA_REQUIRED'>).stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    expect(enrolRes.statusCode).toBe(403);
    expect(enrolRes.json()).toMatchObject({ errorCode: 'E0000079' });
  });

  it('reaches MFA_ENROLL after a forgotten password too, and the new password counts once the app is set up', async () => {
    const asked = await post(t.app, '/api/v1/authn/recovery/password', {
      username: user.login,
      factorType: 'EMAIL',
    });
    expect(asked.statusCode).toBe(200);
    const token = await latestLinkToken(t.app, user.login, 'password-reset');
    const reset = tx(await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token }));
    if (reset.status !== 'PASSWORD_RESET') throw new Error(`expected PASSWORD_RESET, got ${reset.status}`);
    const newPassword = 'HeronPoolSandwell42';
    const next = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', {
        stateToken: reset.stateToken,
        newPassword,
      }),
    );
    expect(next.status).toBe('MFA_ENROLL');
    const pending = await enrol(reset.stateToken);
    const factor = pending._embedded.factor;
    const done = await activate(
      factor.id,
      reset.stateToken,
      codeAt(factor._embedded.activation.sharedSecret, t.clock.now()),
    );
    expect(tx(done).status).toBe('SUCCESS');
    // The new password is the one that signs in now, to MFA_REQUIRED with the app.
    t.clock.advance(1000);
    const later = tx(await post(t.app, '/api/v1/authn', { username: user.login, password: newPassword }));
    expect(later.status).toBe('MFA_REQUIRED');
  });
});
