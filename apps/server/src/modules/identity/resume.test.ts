import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { latestCode, margaret, post, tx } from '../../../test/identity-support';

/*
 * Resume and introspect, as Okta's SDK uses them (`tx.resume()`, `tx.introspect()`): the transaction of a
 * stateToken as it stands, changing nothing; 401 E0000011 once the token is unknown, expired or spent.
 */
describe('resuming a sign-in from its stateToken', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const start = async () => {
    const body = tx(
      await post(t.app, '/api/v1/authn', { username: margaret.email, password: margaret.password }),
    );
    if (body.status !== 'MFA_REQUIRED') throw new Error(`expected MFA_REQUIRED, got ${body.status}`);
    return body;
  };
  const resume = (stateToken: string) => post(t.app, '/api/v1/authn', { stateToken });
  const introspect = (stateToken: string) => post(t.app, '/api/v1/authn/introspect', { stateToken });

  it('answers the transaction in each state through both calls, the same as the step that led there', async () => {
    const required = await start();
    for (const res of [await resume(required.stateToken), await introspect(required.stateToken)]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(tx(res)).toEqual(required);
    }

    const sms = required._embedded.factors.find((f) => f.factorType === 'sms')!;
    const challenge = tx(
      await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken: required.stateToken }),
    );
    expect(challenge.status).toBe('MFA_CHALLENGE');
    expect(tx(await resume(required.stateToken))).toEqual(challenge);
    expect(tx(await introspect(required.stateToken))).toEqual(challenge);

    // Resuming sends nothing and keeps the code that was sent.
    const passCode = await latestCode(t.app, margaret.mobile);
    const done = tx(
      await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
        stateToken: required.stateToken,
        passCode,
      }),
    );
    expect(done.status).toBe('SUCCESS');

    // Finished: its one-time session token is spent, and so is the stateToken.
    for (const res of [await resume(required.stateToken), await introspect(required.stateToken)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ errorCode: 'E0000011', errorSummary: 'Invalid token provided' });
    }
  });

  it('answers 401 E0000011 for an unknown, an expired and a cancelled transaction', async () => {
    expect((await resume('00unknown-token-of-nobody-at-all-0000000000')).json()).toMatchObject({
      errorCode: 'E0000011',
    });

    const expiring = await start();
    t.clock.advance(10 * 60_000 + 1);
    const expired = await introspect(expiring.stateToken);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ errorCode: 'E0000011' });

    const cancelled = await start();
    expect((await post(t.app, '/api/v1/authn/cancel', { stateToken: cancelled.stateToken })).statusCode).toBe(
      200,
    );
    const after = await resume(cancelled.stateToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ errorCode: 'E0000011' });
  });

  it("refuses an empty stateToken in Okta's envelope", async () => {
    const res = await introspect('');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: 'E0000001' });
  });
});
