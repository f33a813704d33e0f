import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { david, latestCode, margaret, outbox, post, signIn, tx } from '../../../test/identity-support';

const wrong = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

describe('one-time codes', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  async function challenge(who: 'mobile' | 'landline' = 'mobile') {
    const user = who === 'mobile' ? margaret : david;
    const phone = who === 'mobile' ? margaret.mobile : david.landline;
    const { stateToken, factors } = await signIn(t.app, user.email, user.password);
    const factor = who === 'mobile' ? factors.find((f) => f.factorType === 'sms')! : factors[0]!;
    const res = await post(t.app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken });
    expect(res.statusCode).toBe(200);
    const verify = (passCode: string) =>
      post(t.app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken, passCode });
    const resend = () => post(t.app, `/api/v1/authn/factors/${factor.id}/verify/resend`, { stateToken });
    return { stateToken, factor, phone, verify, resend, code: () => latestCode(t.app, phone) };
  }

  it('refuses a wrong code with 403 E0000068 and kills a mobile code after 5 wrong tries', async () => {
    const c = await challenge('mobile');
    const code = await c.code();
    for (let i = 0; i < 5; i++) {
      const res = await c.verify(wrong(code));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ errorCode: 'E0000068', errorSummary: 'Invalid Passcode/Answer' });
    }
    const res = await c.verify(code);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorCauses[0].errorSummary).toMatch(/can no longer be used/);
  });

  it('kills a landline code after 3 wrong tries', async () => {
    const c = await challenge('landline');
    const code = await c.code();
    expect(code).toHaveLength(5);
    for (let i = 0; i < 3; i++) expect((await c.verify(wrong(code))).statusCode).toBe(403);
    expect((await c.verify(code)).statusCode).toBe(403);
  });

  it('accepts a mobile code after 4 wrong tries (the fifth attempt)', async () => {
    const c = await challenge('mobile');
    const code = await c.code();
    for (let i = 0; i < 4; i++) expect((await c.verify(wrong(code))).statusCode).toBe(403);
    expect(tx(await c.verify(code)).status).toBe('SUCCESS');
  });

  it('expires a code after 5 minutes', async () => {
    const c = await challenge();
    const code = await c.code();
    t.clock.advance(5 * 60_000);
    const res = await c.verify(code);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      errorCode: 'E0000068',
      errorCauses: [{ errorSummary: 'This code has expired. Ask for a new code.' }],
    });
  });

  it('accepts a code just before it expires, once only', async () => {
    const c = await challenge();
    const code = await c.code();
    t.clock.advance(5 * 60_000 - 1000);
    expect(tx(await c.verify(code)).status).toBe('SUCCESS');
    const again = await c.verify(code);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ errorCode: 'E0000079' });
  });

  it('binds a code to its transaction: another sign-in cannot use it', async () => {
    const first = await challenge();
    const code = await first.code();
    const second = await signIn(t.app, margaret.email, margaret.password);
    const sms = second.factors.find((f) => f.factorType === 'sms')!;
    // The second transaction has not asked for a code yet: wrong state.
    const early = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
      stateToken: second.stateToken,
      passCode: code,
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().errorCode).toBe('E0000079');
    // It asks for its own; the first transaction's code does not work there.
    t.clock.advance(1000);
    await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken: second.stateToken });
    const secondCode = await latestCode(t.app, margaret.mobile);
    if (secondCode !== code) {
      const res = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
        stateToken: second.stateToken,
        passCode: code,
      });
      expect(res.statusCode).toBe(403);
    }
    expect(tx(await first.verify(code)).status).toBe('SUCCESS');
  });

  it('resends at most once per 30 seconds, and a resent code replaces the old one', async () => {
    const c = await challenge();
    const oldCode = await c.code();
    t.clock.advance(10_000);
    const early = await c.resend();
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({ errorCode: 'E0000047' });
    expect(early.headers['retry-after']).toBe('20');
    t.clock.advance(20_000);
    const resent = await c.resend();
    expect(resent.statusCode).toBe(200);
    expect(tx(resent).status).toBe('MFA_CHALLENGE');
    const messages = await outbox(t.app, c.phone);
    expect(messages).toHaveLength(2);
    const newCode = await c.code();
    if (newCode !== oldCode) {
      const old = await c.verify(oldCode);
      expect(old.statusCode).toBe(403);
    }
    expect(tx(await c.verify(newCode)).status).toBe('SUCCESS');
  });

  it('sends at most 5 codes per transaction', async () => {
    const c = await challenge();
    for (let i = 0; i < 4; i++) {
      t.clock.advance(30_000);
      expect((await c.resend()).statusCode).toBe(200);
    }
    t.clock.advance(30_000);
    const sixth = await c.resend();
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(await outbox(t.app, c.phone)).toHaveLength(5);
  });

  it('sends at most 10 codes per account an hour, across transactions', async () => {
    for (let i = 0; i < 2; i++) {
      const c = await challenge();
      for (let j = 0; j < 4; j++) {
        t.clock.advance(30_000);
        expect((await c.resend()).statusCode).toBe(200);
      }
    }
    expect(await outbox(t.app, margaret.mobile)).toHaveLength(10);
    const { stateToken, factors } = await signIn(t.app, margaret.email, margaret.password);
    const res = await post(t.app, `/api/v1/authn/factors/${factors[0]!.id}/verify`, { stateToken });
    expect(res.statusCode).toBe(429);
    expect(res.json().errorCode).toBe('E0000047');
    expect(res.headers['x-rate-limit-limit']).toBe('10');
    t.clock.advance(60 * 60_000);
    const later = await signIn(t.app, margaret.email, margaret.password);
    expect(
      (
        await post(t.app, `/api/v1/authn/factors/${later.factors[0]!.id}/verify`, {
          stateToken: later.stateToken,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('lets the customer switch factor (previous), killing the code already sent', async () => {
    const c = await challenge();
    const smsCode = await c.code();
    const prev = await post(t.app, '/api/v1/authn/previous', { stateToken: c.stateToken });
    expect(tx(prev).status).toBe('MFA_REQUIRED');
    const factors =
      tx(prev).status === 'MFA_REQUIRED'
        ? (
            tx(prev) as {
              _embedded: {
                factors: { id: string; factorType: string; profile: { landlineIsAMobile?: boolean } }[];
              };
            }
          )._embedded.factors
        : [];
    const landlineCall = factors.find((f) => f.factorType === 'call' && !f.profile.landlineIsAMobile)!;
    // Switching factor straight away is allowed (the 30 seconds are per factor).
    const call = await post(t.app, `/api/v1/authn/factors/${landlineCall.id}/verify`, {
      stateToken: c.stateToken,
    });
    expect(call.statusCode).toBe(200);
    const stale = await post(t.app, `/api/v1/authn/factors/${c.factor.id}/verify`, {
      stateToken: c.stateToken,
      passCode: smsCode,
    });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().errorCode).toBe('E0000079');
    const voiceCode = await latestCode(t.app, margaret.landline);
    const done = await post(t.app, `/api/v1/authn/factors/${landlineCall.id}/verify`, {
      stateToken: c.stateToken,
      passCode: voiceCode,
    });
    expect(tx(done).status).toBe('SUCCESS');
  });

  it('ends the transaction on cancel: 401 E0000011 afterwards', async () => {
    const c = await challenge();
    const code = await c.code();
    const res = await post(t.app, '/api/v1/authn/cancel', { stateToken: c.stateToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'UNAUTHENTICATED' });
    const after = await c.verify(code);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ errorCode: 'E0000011', errorSummary: 'Invalid token provided' });
    expect((await post(t.app, '/api/v1/authn/cancel', { stateToken: c.stateToken })).statusCode).toBe(401);
  });

  it('expires the stateToken after 10 minutes and refuses unknown ones', async () => {
    const { stateToken, factors } = await signIn(t.app, margaret.email, margaret.password);
    t.clock.advance(10 * 60_000);
    const res = await post(t.app, `/api/v1/authn/factors/${factors[0]!.id}/verify`, { stateToken });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('E0000011');
    const unknown = await post(t.app, `/api/v1/authn/factors/${factors[0]!.id}/verify`, {
      stateToken: '00madeup',
    });
    expect(unknown.statusCode).toBe(401);
  });

  it("answers 403 E0000079 for a call in the wrong state and 404 for another customer's factor", async () => {
    const m = await signIn(t.app, margaret.email, margaret.password);
    const reset = await post(t.app, '/api/v1/authn/credentials/reset_password', {
      stateToken: m.stateToken,
      newPassword: 'AnotherLongPassword42',
    });
    expect(reset.statusCode).toBe(403);
    expect(reset.json().errorCode).toBe('E0000079');
    const resendBefore = await post(t.app, `/api/v1/authn/factors/${m.factors[0]!.id}/verify/resend`, {
      stateToken: m.stateToken,
    });
    expect(resendBefore.statusCode).toBe(403);
    expect((await post(t.app, '/api/v1/authn/previous', { stateToken: m.stateToken })).statusCode).toBe(403);
    const d = await signIn(t.app, david.email, david.password);
    const foreign = await post(t.app, `/api/v1/authn/factors/${d.factors[0]!.id}/verify`, {
      stateToken: m.stateToken,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errorCode).toBe('E0000007');
  });

  it('never writes a code or a full phone number to the audit trail', async () => {
    const c = await challenge();
    const code = await c.code();
    await c.verify(wrong(code));
    await c.verify(code);
    const audit = await t.db.query('SELECT details, failure_reason FROM audit_event');
    const text = JSON.stringify(audit.rows);
    expect(text).not.toContain(code);
    expect(text).not.toContain(margaret.mobile);
    expect(text).not.toContain('7700900123');
  });
});
