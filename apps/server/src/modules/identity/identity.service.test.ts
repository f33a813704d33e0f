import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { HttpError } from '../../platform/errors';
import { PasswordPolicyError } from './identity.service';
import {
  david,
  latestCode,
  latestLinkToken,
  margaret,
  outbox,
  post,
  tx,
} from '../../../test/identity-support';

describe('identity service for other modules', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());
  const identity = () => t.app.ctx.services.identity;

  it('describes users, factors (masked) and when the password was set', async () => {
    const user = await identity().getUserByCustomerId(margaret.customerId);
    expect(user).toMatchObject({
      customerId: margaret.customerId,
      login: margaret.email,
      status: 'ACTIVE',
      firstName: 'Margaret',
      lastName: 'Thompson',
    });
    expect(await identity().getUser(user!.id)).toEqual(user);
    expect(await identity().getUser('00uUnknown')).toBeNull();
    expect(await identity().getPasswordLastUpdated(margaret.customerId)).toBeInstanceOf(Date);
    expect(await identity().getPasswordLastUpdated('C1000003')).toBeNull();
    const factors = await identity().getFactors(margaret.customerId);
    expect(factors.map((f) => [f.factorType, f.phoneNumber, f.codeLength])).toEqual([
      ['sms', '+44 XXXX XXX123', 6],
      ['call', '+44 XXXX XXX123', 6],
      ['call', '+44 XXXX XXX456', 5],
    ]);
    expect(await identity().getFactors('C1000003')).toEqual([]);
  });

  it('verifies the current password, counting wrong ones towards the lockout', async () => {
    expect(await identity().verifyPassword(margaret.customerId, margaret.password)).toBe(true);
    expect(await identity().verifyPassword(margaret.customerId, 'nope')).toBe(false);
    expect(await identity().verifyPassword('C9999999', margaret.password)).toBe(false);
    for (let i = 0; i < 9; i++) await identity().verifyPassword(margaret.customerId, 'nope');
    expect(await identity().verifyPassword(margaret.customerId, margaret.password)).toBe(false);
    const lock = await t.db.query(
      `SELECT 1 FROM audit_event WHERE event_id = 'identity.lockout' AND customer_id = $1`,
      [margaret.customerId],
    );
    expect(lock.rowCount).toBe(1);
  });

  it('changes the password under the same rules, refusing the current one', async () => {
    await expect(identity().changePassword(margaret.customerId, 'short')).rejects.toThrow(
      PasswordPolicyError,
    );
    await expect(identity().changePassword(margaret.customerId, margaret.password)).rejects.toMatchObject({
      reason: 'Your new password must be different from your current password.',
    });
    await expect(identity().changePassword('C9999999', 'Lantern-Kettle-Orchard')).rejects.toBeInstanceOf(
      HttpError,
    );
    t.clock.advance(60_000);
    await identity().changePassword(margaret.customerId, 'Lantern-Kettle-Orchard');
    expect(await identity().getPasswordLastUpdated(margaret.customerId)).toEqual(t.clock.now());
    expect(await identity().verifyPassword(margaret.customerId, 'Lantern-Kettle-Orchard')).toBe(true);
    expect(
      tx(await post(t.app, '/api/v1/authn', { username: margaret.email, password: 'Lantern-Kettle-Orchard' }))
        .status,
    ).toBe('MFA_REQUIRED');
  });

  it('sends and checks step-up codes for profile changes', async () => {
    const sent = await identity().sendStepUpCode(margaret.customerId, 'sms');
    expect(sent).toMatchObject({ codeLength: 6, phoneNumber: '+44 XXXX XXX123', factorType: 'sms' });
    expect(sent.expiresAt).toEqual(new Date(t.clock.now().getTime() + 5 * 60_000));
    const code = await latestCode(t.app, margaret.mobile);
    await expect(identity().sendStepUpCode(margaret.customerId, 'sms')).rejects.toMatchObject({
      statusCode: 429,
      headers: { 'Retry-After': '30' },
    });
    const newPassword = 'Lantern-Kettle-Orchard';
    const ended: string[] = [];
    const change = (passCode: string, currentPassword: string, next = newPassword) =>
      identity().changePasswordWithStepUp(
        margaret.customerId,
        { passCode, currentPassword, newPassword: next },
        async () => {
          ended.push(passCode);
        },
      );
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await change(wrong, margaret.password)).toMatchObject({ ok: false, refused: 'code' });
    const attempts = await t.db.query<{ attempts: number }>(
      'SELECT attempts FROM identity_code ORDER BY id DESC LIMIT 1',
    );
    expect(attempts.rows[0]!.attempts).toBe(1);
    // The right code with a wrong current password or a refused new one leaves the code for another try.
    expect(await change(code, 'NotMine-2024')).toMatchObject({ ok: false, refused: 'current-password' });
    expect(await change(code, margaret.password, 'short')).toMatchObject({
      ok: false,
      refused: 'new-password',
    });
    expect(await change(code, margaret.password, margaret.password)).toMatchObject({
      refused: 'new-password',
      reason: 'Your new password must be different from your current password.',
    });
    expect(ended).toEqual([]);
    expect(await change(code, margaret.password)).toEqual({ ok: true, changedAt: t.clock.now() });
    expect(ended).toEqual([code]);
    expect(await identity().verifyPassword(margaret.customerId, newPassword)).toBe(true);
    // Used up with the change.
    expect(await change(code, newPassword, 'Another-Lantern-2027')).toMatchObject({ refused: 'code' });
    // A step-up code is not a sign-in: no session token, and it cannot finish a sign-in transaction.
    const tokens = await t.db.query('SELECT 1 FROM identity_session_token');
    expect(tokens.rowCount).toBe(0);

    // "call" rings the landline when there is one: a 5-digit code.
    const call = await identity().sendStepUpCode(margaret.customerId, 'call');
    expect(call).toMatchObject({ codeLength: 5, factorType: 'call', phoneNumber: '+44 XXXX XXX456' });
    expect((await outbox(t.app, margaret.landline))[0]!.channel).toBe('voice');
    await expect(identity().sendStepUpCode(david.customerId, 'sms')).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(identity().sendStepUpCode('C1000003', 'sms')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('applies the settings in force: a rule switched on in content applies at once after the cache', async () => {
    await t.db.query(
      `UPDATE content_item SET body = jsonb_set(jsonb_set(body, '{globalPasswordRequirementsBlock,uppercaseChar}', 'true'),
         '{globalPasswordRequirementsBlock,minPasswordLength}', '16') WHERE kind = 'settings'`,
    );
    t.clock.advance(24 * 60 * 60_000);
    await post(t.app, '/Registration/resetPassword', { email: margaret.email });
    const token = await latestLinkToken(t.app, margaret.email, 'password-reset');
    const reset = tx(await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token }));
    if (reset.status !== 'PASSWORD_RESET') throw new Error(reset.status);
    expect(reset._embedded.policy.complexity).toMatchObject({ minLength: 16, minUpperCase: 1 });
    const tooShort = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken: reset.stateToken,
      newPassword: 'Harbour-Light-9',
    });
    expect(tooShort.json().errorCauses).toEqual([
      { errorSummary: 'Your password must be at least 16 characters long.' },
    ]);
    const noCapital = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken: reset.stateToken,
      newPassword: 'harbour-lights-at-9',
    });
    expect(noCapital.json().errorCauses).toEqual([
      { errorSummary: 'Your password must include a capital letter.' },
    ]);
    const ok = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken: reset.stateToken,
      newPassword: 'Harbour-Lights-at-9',
    });
    expect(tx(ok).status).toBe('MFA_REQUIRED');
  });
});
