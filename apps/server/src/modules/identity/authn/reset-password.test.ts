import { PASSWORD_SAME_AS_CURRENT } from '@portal/contracts/fields';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers';
import { signInTokens, tokenRequest } from '../../../../test/oidc-support';
import { createTestUser, latestCode, latestLinkToken, post, tx } from '../../../../test/identity-support';

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

  it('ends every session of the account at once: refresh tokens, and access tokens within a second', async () => {
    const user = await createTestUser(t.db, { now: t.clock.now() });
    const who = {
      login: user.login,
      password: user.password,
      phone: user.mobile!,
      factor: 'sms' as const,
      customerId: user.customerId,
    };
    const first = await signInTokens(t, who);
    const second = await signInTokens(t, who);
    // A test user's id is not a customer id a path takes: a live token is answered 404 (not yours), an
    // ended one 401.
    const list = (accessToken: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/sign-in-sessions/C0000000',
        headers: { authorization: `Bearer ${accessToken}` },
      });
    expect((await list(first.access_token)).statusCode).toBe(404);
    expect((await list(second.access_token)).statusCode).toBe(404);

    const stateToken = await recovery(user.login);
    const chosen = tx(
      await post(t.app, '/api/v1/authn/credentials/reset_password', {
        stateToken,
        newPassword: 'Kettle-Orchard-Lantern-77',
      }),
    );
    if (chosen.status !== 'MFA_REQUIRED') throw new Error(`expected MFA_REQUIRED, got ${chosen.status}`);
    const factor = chosen._embedded.factors.find((f) => f.factorType === 'sms')!;
    await post(t.app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken });
    const passCode = await latestCode(t.app, user.mobile!);
    const done = tx(await post(t.app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken, passCode }));
    expect(done.status).toBe('SUCCESS');

    t.clock.advance(1000);
    for (const tokens of [first, second]) {
      const refused = await list(tokens.access_token);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toContain('The sign-in session has ended');
      const refresh = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    }
    const audit = await t.db.query<{ details: { sessionsEnded: number } }>(
      `SELECT details FROM audit_event WHERE event_id = 'identity.password.reset' AND customer_id = $1 AND details ? 'sessionsEnded'`,
      [user.customerId],
    );
    expect(audit.rows.map((r) => r.details.sessionsEnded)).toEqual([2]);
  });
});
