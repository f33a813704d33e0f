import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../platform/password-hash';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';

/*
 * The password change with the authenticator app's code instead of a text or call (issue 25 point 2): the
 * app's rules at sign-in hold here too (accepted once, one step of drift, wrong codes towards the
 * lockout). Eleanor is the demo customer these tests set up an app for and change the password of:
 * nobody else signs in as her. The tests run in order and share her; her password is put back afterwards.
 */
const email = 'eleanor.vaughan@example.co.uk';
const demoPassword = 'YewTreeLedbury54';
const customerId = 'C1000016';
const STEP_MS = 30_000;
const CHANGE_WINDOW_MS = 15 * 60_000;

describe.each(databases())('password change with the authenticator app on $name', ({ open }) => {
  let t: TestContext;
  let eleanor: SignedIn;
  let key: string;
  let password = demoPassword;

  const codeAt = (steps = 0) =>
    TOTP.generate({ secret: Secret.fromBase32(key), timestamp: t.clock.now().getTime() + steps * STEP_MS });
  const otherCode = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
  const change = (body: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/password/${customerId}/change`,
      payload: body,
      headers: { authorization: eleanor.authorization },
    });
  const failures = async () =>
    Number(
      (
        await t.db.query<{ failed_attempts: number }>(
          'SELECT failed_attempts FROM identity_user WHERE customer_id = $1',
          [customerId],
        )
      ).rows[0]!.failed_attempts,
    );
  const reset = async () => {
    await t.db.query(
      `UPDATE identity_user SET password_hash = $1, failed_attempts = 0, locked_until = NULL WHERE customer_id = $2`,
      [await hashPassword(demoPassword), customerId],
    );
    await t.db.query(
      `DELETE FROM identity_authenticator WHERE user_id = (SELECT id FROM identity_user WHERE customer_id = $1)`,
      [customerId],
    );
  };

  beforeAll(async () => {
    t = await createTestApp({ OIDC_ACCESS_TOKEN_TTL: '3600' }, { db: await open() });
    await t.db.query(`DELETE FROM rate_counter_hit WHERE key = 'password-change:${customerId}'`);
    await reset();
    eleanor = await signIn(t, email);
    const identity = t.app.ctx.services.identity;
    const enrolment = await identity.enrolTotp(customerId);
    key = enrolment.key;
    await identity.activateTotp(customerId, enrolment.id, codeAt());
    t.clock.advance(STEP_MS);
  });
  afterAll(async () => {
    await reset();
    await t.close();
    await t.db.close();
  });

  it('refuses a wrong app code with errorCode 1 and counts it towards the lockout', async () => {
    const before = await failures();
    const res = await change({
      codeFrom: 'app',
      mfaPassCode: otherCode(codeAt()),
      currentPassword: password,
      newPassword: 'MeadowLarkFarm1954',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: 1, code: 'MFA_CODE_INVALID' });
    expect(await failures()).toBe(before + 1);
    const audit = await t.db.query<{ details: { purpose: string; factorType: string } }>(
      `SELECT details FROM audit_event WHERE customer_id = $1 AND event_id = 'identity.mfa.failed' ORDER BY id DESC LIMIT 1`,
      [customerId],
    );
    expect(audit.rows[0]!.details).toMatchObject({ purpose: 'change', factorType: 'totp' });
  });

  it('leaves the code unused after a wrong current password, changes with it, then refuses it again', async () => {
    const code = codeAt();
    const wrongCurrent = await change({
      codeFrom: 'app',
      mfaPassCode: code,
      currentPassword: 'NotMyPassword1',
      newPassword: 'MeadowLarkFarm1954',
    });
    expect(wrongCurrent.json()).toMatchObject({ errorCode: 2 });
    const changed = await change({
      codeFrom: 'app',
      mfaPassCode: code,
      currentPassword: password,
      newPassword: 'MeadowLarkFarm1954',
    });
    expect(changed.statusCode).toBe(200);
    password = 'MeadowLarkFarm1954';
    const signIns = await t.db.query<{ details: { mfaSendMethod: string } }>(
      `SELECT details FROM audit_event WHERE customer_id = $1 AND event_id = 'identity.stepup.verified' ORDER BY id DESC LIMIT 1`,
      [customerId],
    );
    expect(signIns.rows[0]!.details).toMatchObject({ mfaSendMethod: 'totp' });
    // Accepted once: the same code cannot change the password again.
    const replay = await change({
      codeFrom: 'app',
      mfaPassCode: code,
      currentPassword: password,
      newPassword: 'OrchardGateLedbury7',
    });
    expect(replay.json()).toMatchObject({ errorCode: 1 });
  });

  it("accepts the next step's code (one step of drift) and refuses a sent-code change without a code sent", async () => {
    t.clock.advance(CHANGE_WINDOW_MS);
    const early = await change({
      codeFrom: 'app',
      mfaPassCode: codeAt(1),
      currentPassword: password,
      newPassword: 'OrchardGateLedbury7',
    });
    expect(early.statusCode).toBe(200);
    password = 'OrchardGateLedbury7';
    // The app's code is not a sent code: without codeFrom it is checked against codes sent, of which none is.
    const asSent = await change({
      mfaPassCode: codeAt(2),
      currentPassword: password,
      newPassword: 'HopKilnLedbury88',
    });
    expect(asSent.json()).toMatchObject({ errorCode: 1 });
  });

  it('refuses an app code with errorCode 1 once the app is removed', async () => {
    await t.db.query(
      `DELETE FROM identity_authenticator WHERE user_id = (SELECT id FROM identity_user WHERE customer_id = $1)`,
      [customerId],
    );
    t.clock.advance(STEP_MS * 2);
    const res = await change({
      codeFrom: 'app',
      mfaPassCode: codeAt(),
      currentPassword: password,
      newPassword: 'HopKilnLedbury88',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: 1 });
  });
});
