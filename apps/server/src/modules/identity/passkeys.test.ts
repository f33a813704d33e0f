import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signIn as signInDemo } from '../../../test/sign-in';
import { HttpError } from '../../platform/errors';
import { openDb, type Db } from '../../platform/db';
import { createTestUser, outbox, post, signIn, tx } from '../../../test/identity-support';
import { SoftPasskey } from '../../../test/webauthn-authenticator';

/*
 * Issue 25 point 1: passkeys (WebAuthn). A software authenticator (node:crypto P-256, attestation 'none')
 * answers the server's options, as a browser would; @simplewebauthn/server checks them. On the embedded
 * database, and on PostgreSQL too when DATABASE_URL is set (each test has accounts of its own).
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

type User = Awaited<ReturnType<typeof createTestUser>>;

describe.each(variants)('passkeys ($name)', (variant) => {
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

  /** Adds a passkey for `who` through the identity service, as the profile does. */
  async function addPasskey(who: User = user, key = new SoftPasskey(), name = 'My phone') {
    t.clock.advance(1000);
    const options = await identity().passkeyOptions(who.customerId);
    const method = await identity().registerPasskey(who.customerId, name, key.register(options));
    return { key, method };
  }

  async function refusal(promise: Promise<unknown>) {
    try {
      await promise;
    } catch (error) {
      if (error instanceof HttpError) return { status: error.statusCode, code: error.code };
      throw error;
    }
    throw new Error('expected a refusal');
  }

  const signInOptions = async () => {
    const res = await post(t.app, '/api/v1/authn/passkey/options', {});
    expect(res.statusCode).toBe(200);
    return res.json<{ challenge: string; rpId: string; userVerification: string; allowCredentials?: [] }>();
  };
  const signInWith = (credential: object) => post(t.app, '/api/v1/authn/passkey/verify', { credential });

  const amrOf = async (userId: string) =>
    (
      await t.db.query<{ amr: string[] }>(
        'SELECT amr FROM identity_session_token WHERE user_id = $1 ORDER BY created_at',
        [userId],
      )
    ).rows.map((r) => r.amr);

  it('adds a passkey (user verification required, discoverable preferred) and lists it by name', async () => {
    const options = await identity().passkeyOptions(user.customerId);
    expect(options.rp.id).toBe('localhost');
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'preferred',
      userVerification: 'required',
    });
    expect(options.user.name).toBe(user.login);
    // EdDSA, ES256, RS256, whatever the runtime: not the post-quantum ML-DSA-44 that the library puts first
    // on Node.js 24, whose signatures another instance's runtime may not check.
    expect(options.pubKeyCredParams).toEqual([
      { type: 'public-key', alg: -8 },
      { type: 'public-key', alg: -7 },
      { type: 'public-key', alg: -257 },
    ]);
    const key = new SoftPasskey();
    const method = await identity().registerPasskey(
      user.customerId,
      '  Kitchen laptop ',
      key.register(options),
    );
    expect(method).toMatchObject({
      type: 'passkey',
      status: 'ACTIVE',
      label: 'Kitchen laptop',
      lastUsedAt: null,
    });

    const listed = await identity().listSignInMethods(user.customerId);
    expect(listed.find((m) => m.type === 'passkey')).toMatchObject({
      id: method.id,
      label: 'Kitchen laptop',
    });
    const [email] = await outbox(t.app, user.login);
    expect(email).toMatchObject({ subject: 'A passkey was added to your account' });

    // Its next registration excludes it, so the browser does not make a second one on the same device.
    const again = await identity().passkeyOptions(user.customerId);
    expect(again.excludeCredentials?.map((d) => d.id)).toEqual([key.id]);
    // The same credential cannot be registered twice.
    expect(await refusal(identity().registerPasskey(user.customerId, 'Again', key.register(again)))).toEqual({
      status: 400,
      code: 'PASSKEY_INVALID',
    });
  });

  it('refuses a registration without user verification, from another site, or over a used challenge', async () => {
    const options = await identity().passkeyOptions(user.customerId);
    const noUv = new SoftPasskey({ userVerified: false });
    expect(await refusal(identity().registerPasskey(user.customerId, 'x', noUv.register(options)))).toEqual({
      status: 400,
      code: 'PASSKEY_INVALID',
    });
    const phishing = new SoftPasskey({ origin: 'https://portal.example.net' });
    const fresh = await identity().passkeyOptions(user.customerId);
    expect(
      await refusal(identity().registerPasskey(user.customerId, 'x', phishing.register(fresh))),
    ).toMatchObject({
      status: 400,
    });
    // `fresh` was used by the refused attempt: a good passkey over it is refused too.
    expect(
      await refusal(identity().registerPasskey(user.customerId, 'x', new SoftPasskey().register(fresh))),
    ).toMatchObject({ status: 400 });
    // Another customer's challenge is not this customer's.
    const other = await createTestUser(t.db, { now: t.clock.now() });
    const theirs = await identity().passkeyOptions(other.customerId);
    expect(
      await refusal(identity().registerPasskey(user.customerId, 'x', new SoftPasskey().register(theirs))),
    ).toMatchObject({ status: 400 });
  });

  it('signs in with a passkey alone: SUCCESS with a sessionToken, amr hwk user mfa, audited, last used set', async () => {
    const { key, method } = await addPasskey();
    t.clock.advance(60_000);
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);

    const res = await signInWith(key.assert(options.challenge));
    expect(res.statusCode).toBe(200);
    const body = tx(res);
    if (body.status !== 'SUCCESS') throw new Error(res.body);
    expect(body.sessionToken).toBeTruthy();
    expect(body._embedded.user.profile.login).toBe(user.login);
    expect(await amrOf(user.id)).toEqual([['hwk', 'user', 'mfa']]);
    const consumed = await identity().consumeSessionToken(body.sessionToken);
    expect(consumed).toMatchObject({ customerId: user.customerId });

    const { rows } = await t.db.query<{ details: { mfaSendMethod: string } }>(
      `SELECT details FROM audit_event WHERE event_id = 'identity.signin' AND customer_id = $1 AND is_success`,
      [user.customerId],
    );
    expect(rows.map((r) => r.details.mfaSendMethod)).toEqual(['webauthn']);
    const listed = await identity().listSignInMethods(user.customerId);
    expect(listed.find((m) => m.id === method.id)?.lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('uses a challenge once and not after 5 minutes', async () => {
    const { key } = await addPasskey();
    const options = await signInOptions();
    const assertion = key.assert(options.challenge);
    expect((await signInWith(assertion)).statusCode).toBe(200);
    const replay = await signInWith(assertion);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ errorCode: 'E0000004' });

    const late = await signInOptions();
    t.clock.advance(5 * 60_000 + 1000);
    expect((await signInWith(key.assert(late.challenge))).statusCode).toBe(401);
  });

  it('gives one refusal for an unknown passkey, a bad signature, a counter going back and a locked account', async () => {
    const { key } = await addPasskey(user, new SoftPasskey({ counter: 5 }));
    const unknown = new SoftPasskey();
    const refusedUnknown = await signInWith(unknown.assert((await signInOptions()).challenge));

    const bad = key.assert((await signInOptions()).challenge);
    bad.response.signature = Buffer.from('not a signature').toString('base64url');
    const refusedBad = await signInWith(bad);

    // The counter went to 6 with a good sign-in; an assertion counting 3 looks like a clone: refused.
    expect((await signInWith(key.assert((await signInOptions()).challenge))).statusCode).toBe(200);
    const refusedClone = await signInWith(key.assert((await signInOptions()).challenge, { counter: 3 }));

    await t.db.query('UPDATE identity_user SET locked_until = $2 WHERE id = $1', [
      user.id,
      new Date(t.clock.now().getTime() + 60_000),
    ]);
    const refusedLocked = await signInWith(key.assert((await signInOptions()).challenge));

    for (const res of [refusedUnknown, refusedBad, refusedClone, refusedLocked]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ errorCode: 'E0000004', errorSummary: 'Authentication failed' });
    }
  });

  it('answers bad input with 400, never 500', async () => {
    for (const credential of [
      {},
      { id: 'abc', rawId: 'abc', type: 'public-key' },
      {
        id: '***',
        rawId: '***',
        type: 'public-key',
        response: { clientDataJSON: '', authenticatorData: '', signature: '' },
      },
    ]) {
      const res = await signInWith(credential);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'E0000001' });
    }
    // Well-formed but nonsense: the generic refusal.
    const nonsense = await signInWith({
      id: 'abc',
      rawId: 'abc',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
    });
    expect(nonsense.statusCode).toBe(401);
  });

  describe('as the second step after the password', () => {
    const verify = (factorId: string, body: object) =>
      post(t.app, `/api/v1/authn/factors/${factorId}/verify`, body);

    /** Password, then the passkey factor's challenge. */
    async function challenged(who: User) {
      t.clock.advance(1000);
      const { stateToken, factors } = await signIn(t.app, who.login, who.password);
      const factor = factors.find((f) => f.factorType === 'webauthn');
      if (!factor) throw new Error('no webauthn factor offered');
      const res = await verify(factor.id, { stateToken });
      expect(res.statusCode).toBe(200);
      const body = tx(res);
      if (body.status !== 'MFA_CHALLENGE' || body._embedded.factor.factorType !== 'webauthn')
        throw new Error(res.body);
      return { stateToken, factor, challenge: body._embedded.factor._embedded.challenge };
    }

    const oktaFields = (assertion: ReturnType<SoftPasskey['assert']>) => ({
      clientData: assertion.response.clientDataJSON,
      authenticatorData: assertion.response.authenticatorData,
      signatureData: assertion.response.signature,
      credentialId: assertion.id,
    });

    it('lists each passkey as a webauthn FIDO factor; challenge, then the assertion, gives SUCCESS', async () => {
      const { key, method } = await addPasskey();
      const second = await addPasskey(user, new SoftPasskey(), 'Tablet');
      const { stateToken, factor, challenge } = await challenged(user);
      expect(factor).toMatchObject({
        id: method.id,
        factorType: 'webauthn',
        provider: 'FIDO',
        profile: { name: 'My phone', credentialId: key.id },
      });
      expect(challenge.userVerification).toBe('required');
      expect(challenge.allowCredentials.map((c) => c.id).sort()).toEqual([key.id, second.key.id].sort());

      // Any of the customer's passkeys may answer, whichever factor was chosen.
      const res = await verify(factor.id, {
        stateToken,
        ...oktaFields(second.key.assert(challenge.challenge)),
      });
      expect(res.statusCode).toBe(200);
      expect(tx(res).status).toBe('SUCCESS');
      expect(await amrOf(user.id)).toEqual([['pwd', 'hwk', 'mfa']]);
    });

    it("refuses another customer's passkey, a reused challenge and a wrong signature, counting towards the lockout", async () => {
      await addPasskey();
      const other = await createTestUser(t.db, { now: t.clock.now() });
      const theirs = await addPasskey(other);

      const { stateToken, factor, challenge } = await challenged(user);
      const wrongCustomer = await verify(factor.id, {
        stateToken,
        ...oktaFields(theirs.key.assert(challenge.challenge)),
      });
      expect(wrongCustomer.statusCode).toBe(403);
      expect(wrongCustomer.json()).toMatchObject({ errorCode: 'E0000068' });

      // A challenge of another transaction (the other customer's) cannot finish this one.
      const otherChallenge = await challenged(other);
      const mine = (await addPasskey(user, new SoftPasskey(), 'Spare')).key;
      const crossed = await verify(factor.id, {
        stateToken,
        ...oktaFields(mine.assert(otherChallenge.challenge.challenge)),
      });
      expect(crossed.statusCode).toBe(403);

      const { rows } = await t.db.query<{ failed_attempts: number }>(
        'SELECT failed_attempts FROM identity_user WHERE id = $1',
        [user.id],
      );
      expect(rows[0]!.failed_attempts).toBe(2);

      // The challenge was used by the refused attempt: even the right passkey cannot reuse it.
      const reused = await verify(factor.id, { stateToken, ...oktaFields(mine.assert(challenge.challenge)) });
      expect(reused.statusCode).toBe(403);
      const fresh = await challenged(user);
      const ok = await verify(fresh.factor.id, {
        stateToken: fresh.stateToken,
        ...oktaFields(mine.assert(fresh.challenge.challenge)),
      });
      expect(ok.statusCode).toBe(200);
      // Finished: nothing more in this transaction. A passkey factor takes no passCode.
      const after = await verify(fresh.factor.id, { stateToken: fresh.stateToken });
      expect(after.json()).toMatchObject({ errorCode: 'E0000079' });
      const next = await challenged(user);
      const passCodeOnly = await verify(next.factor.id, { stateToken: next.stateToken, passCode: '123456' });
      expect(passCodeOnly.statusCode).toBe(403);
      expect(passCodeOnly.json()).toMatchObject({ errorCode: 'E0000068' });
    });
  });

  it('renames and removes from the profile over HTTP; another customer gets 404; bad input 400', async () => {
    const me = await signInDemo(t, 'gareth.pryce@example.co.uk');
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
      t.app.inject({
        method,
        url: path,
        headers: { authorization: me.authorization },
        ...(payload ? { payload } : {}),
      });
    const base = `/api/v1/sign-in-methods/${me.customerId}`;
    const optionsRes = await call('POST', `${base}/passkeys/options`);
    expect(optionsRes.statusCode).toBe(200);
    const key = new SoftPasskey();
    const added = await call('POST', `${base}/passkeys`, {
      name: 'Phone',
      credential: key.register(optionsRes.json()),
    });
    expect(added.statusCode).toBe(200);
    const { id } = added.json<{ id: string }>();

    const renamed = await call('PATCH', `${base}/passkeys/${id}`, { name: 'Old phone' });
    expect(renamed.json()).toMatchObject({ id, type: 'passkey', label: 'Old phone' });
    expect((await call('PATCH', `${base}/passkeys/${id}`, { name: '' })).statusCode).toBe(400);
    expect((await call('PATCH', `${base}/passkeys/${id}`, { name: 'x'.repeat(61) })).statusCode).toBe(400);
    expect((await call('POST', `${base}/passkeys`, { name: 'x', credential: { id: 1 } })).statusCode).toBe(
      400,
    );
    expect((await call('POST', `${base}/passkeys`, { name: 'x' })).statusCode).toBe(400);

    // Another customer (X's passkey, Y's token): 404, and it is still there.
    const other = await signInDemo(t, 'margaret.thompson@example.co.uk');
    const theirs = (method: 'PATCH' | 'DELETE', path: string, payload?: object) =>
      t.app.inject({
        method,
        url: path,
        headers: { authorization: other.authorization },
        ...(payload ? { payload } : {}),
      });
    expect((await theirs('DELETE', `/api/v1/sign-in-methods/${other.customerId}/${id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await theirs('PATCH', `/api/v1/sign-in-methods/${other.customerId}/passkeys/${id}`, { name: 'Mine' }))
        .statusCode,
    ).toBe(404);
    expect((await theirs('DELETE', `${base}/${id}`)).statusCode).toBe(404);

    const removed = await call('DELETE', `${base}/${id}`);
    expect(removed.statusCode).toBe(200);
    const list = await call('GET', base);
    expect(list.json<{ methods: Array<{ type: string }> }>().methods.some((m) => m.type === 'passkey')).toBe(
      false,
    );
    const subjects = (await outbox(t.app, 'gareth.pryce@example.co.uk')).map((m) => m.subject);
    expect(subjects).toContain('A passkey was removed from your account');
  });

  describe('the offer after registration', () => {
    const offer = (who: User = user) => identity().passkeyOffer(who.customerId);
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;

    it('is due for a new account without a passkey, and no longer a day after its first code', async () => {
      expect(await offer()).toEqual({ due: true });
      t.clock.advance(23 * HOUR);
      expect((await offer()).due).toBe(true);
      t.clock.advance(2 * HOUR);
      expect(await offer()).toEqual({ due: false });
    });

    it('is never due once the customer has a passkey', async () => {
      await addPasskey();
      expect(await offer()).toEqual({ due: false });
    });

    it('stays away for 30 days after "not now", then comes back once', async () => {
      const declined = await identity().declinePasskeyOffer(user.customerId);
      const notBefore = new Date(t.clock.now().getTime() + 30 * DAY).toISOString();
      expect(declined).toEqual({ due: false, notBefore });
      t.clock.advance(29 * DAY);
      expect(await offer()).toEqual({ due: false, notBefore });
      t.clock.advance(DAY);
      expect(await offer()).toEqual({ due: true });
      await identity().declinePasskeyOffer(user.customerId);
      expect((await offer()).due).toBe(false);
    });

    it('over HTTP: the customer\'s own only, "not now" audited, bad input 400', async () => {
      const me = await signInDemo(t, 'gareth.pryce@example.co.uk');
      const call = (method: 'GET' | 'POST', customerId: string, suffix = '', payload?: object) =>
        t.app.inject({
          method,
          url: `/api/v1/sign-in-methods/${customerId}/passkeys/offer${suffix}`,
          headers: { authorization: me.authorization },
          ...(payload ? { payload } : {}),
        });
      expect((await call('GET', me.customerId)).statusCode).toBe(200);
      expect((await call('GET', 'C1000001')).statusCode).toBe(404);
      expect((await call('POST', 'C1000001', '/decline', {})).statusCode).toBe(404);
      expect((await call('POST', me.customerId, '/decline', { forever: true })).statusCode).toBe(400);

      const declined = await call('POST', me.customerId, '/decline', {});
      expect(declined.statusCode).toBe(200);
      const answer = declined.json<{ due: boolean; notBefore: string }>();
      expect(answer.due).toBe(false);
      // Read back: not due until then, whenever the account was registered.
      expect((await call('GET', me.customerId)).json()).toEqual(answer);
      const audit = await t.db.query<{ event_id: string }>(
        `SELECT event_id FROM audit_event WHERE customer_id = $1 AND event_id = 'identity.passkey.offer.declined'`,
        [me.customerId],
      );
      expect(audit.rows.length).toBeGreaterThan(0);
    });
  });
});
