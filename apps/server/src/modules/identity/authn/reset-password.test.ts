import { PASSWORD_SAME_AS_CURRENT } from '@portal/contracts/fields';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers';
import { createTestUser, latestLinkToken, post, tx } from '../test-support';

/*
 * The new password of a recovery (forgotten password): the customer's current password is refused as a
 * password change refuses it, in Okta's envelope with the rule in errorCauses, and audited; another
 * password goes on to the second factor.
 */
describe('reset_password', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  async function recovery(login: string): Promise<string> {
    const asked = await post(t.app, '/api/v1/authn/recovery/password', {
      username: login,
      factorType: 'EMAIL',
    });
    expect(asked.statusCode).toBe(200);
    const token = await latestLinkToken(t.app, login, 'password-reset');
    const reset = tx(await post(t.app, '/api/v1/authn/recovery/token', { recoveryToken: token }));
    if (reset.status !== 'PASSWORD_RESET') throw new Error(`expected PASSWORD_RESET, got ${reset.status}`);
    return reset.stateToken;
  }

  it('refuses the current password with 403 E0000014 naming the rule, then takes another', async () => {
    const user = await createTestUser(t.db);
    const stateToken = await recovery(user.login);

    const same = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken,
      newPassword: user.password,
    });
    expect(same.statusCode).toBe(403);
    expect(same.json()).toMatchObject({
      errorCode: 'E0000014',
      errorSummary: 'Update of credentials failed',
      errorCauses: [{ errorSummary: PASSWORD_SAME_AS_CURRENT }],
    });
    const audit = await t.db.query<{ failure_reason: string; details: { rule: string; purpose: string } }>(
      `SELECT failure_reason, details FROM audit_event WHERE event_id = 'identity.password.set' AND customer_id = $1`,
      [user.customerId],
    );
    expect(audit.rows).toEqual([
      {
        failure_reason: 'PASSWORD_POLICY',
        details: { rule: PASSWORD_SAME_AS_CURRENT, purpose: 'recovery' },
      },
    ]);

    // The refusal leaves the transaction where it was: the customer chooses again with the same link.
    const other = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken,
      newPassword: 'Kettle-Orchard-Lantern-77',
    });
    expect(other.statusCode).toBe(200);
    expect(tx(other).status).toBe('MFA_REQUIRED');
  });
});
