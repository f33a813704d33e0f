import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type { CallDefinition } from '@portal/contracts/call';
import { createTestDb, type TestContext } from '../../test/helpers';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { MARGARET, signInTokens, type TokenSet } from '../../test/oidc-support';
import { apiAudience, oidcIssuer, PORTAL_SCOPE } from './auth-guard';
import { ManualClock } from './clock';
import type { Db } from './db';
import { route } from './route';

/** Like defineCall, but kept out of the contracts' registry: these calls exist only in this test. */
const probeCall = <P extends z.ZodMiniType, R extends Record<number, z.ZodMiniType>, const A extends boolean>(
  call: CallDefinition<P, z.ZodMiniType, z.ZodMiniType, R, A>,
) => call;

const probeAnswer = {
  200: z.object({
    customer: z.object({
      customerId: z.string(),
      onBehalfOf: z.string(),
      sub: z.string(),
      grantId: z.optional(z.string()),
    }),
  }),
};

/** A signed-in call with the customer in its path, as every customer data call has. */
const thingsProbe = probeCall({
  id: 'probe.things',
  summary: 'The customer guard, with the customer in the path',
  service: 'account',
  method: 'GET',
  path: '/probe/customers/:customerId/things',
  auth: true,
  params: z.object({ customerId: z.string() }),
  responses: probeAnswer,
});

/** A signed-in call without a customer in its path. */
const meProbe = probeCall({
  id: 'probe.me',
  summary: 'The customer guard, without a customer in the path',
  service: 'account',
  method: 'GET',
  path: '/probe/me',
  auth: true,
  responses: probeAnswer,
});

/** The real app plus two probe calls served by route(), the way data routes are. */
async function guardedApp(
  env: Record<string, string> = {},
  clock = new ManualClock(),
  shared?: Db,
): Promise<TestContext> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  const db = shared ?? (await createTestDb());
  const app = await buildApp({ config, db, clock, logger: false });
  await app.register(async (scope) => {
    route(scope, thingsProbe, ({ customer }) => ({ customer }));
    route(scope, meProbe, ({ customer }) => ({ customer }));
  });
  await app.ready();
  return {
    app,
    db,
    clock,
    config,
    async close() {
      await app.close();
      if (!shared) await db.close();
    },
  };
}

const probe = (t: TestContext, url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('customer guard of route() on a signed-in call', () => {
  let t: TestContext;
  let tokens: TokenSet;

  beforeAll(async () => {
    t = await guardedApp();
    tokens = await signInTokens(t, MARGARET);
  });
  afterAll(() => t.close());

  /** A token signed with the provider's own key, with the claims given (for wrong-audience/scope cases). */
  async function ownKeyToken(claims: Record<string, unknown>, audience = apiAudience(t.config)) {
    const { current } = await t.app.ctx.services.oidc.keys();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    return new SignJWT({ customerId: 'C1000001', onBehalfOf: 'C1000001', scope: PORTAL_SCOPE, ...claims })
      .setProtectedHeader({ alg: current.alg, kid: current.kid, typ: 'at+jwt' })
      .setIssuer(oidcIssuer(t.config))
      .setAudience(audience)
      .setSubject('00u-test')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(current.key);
  }

  it('lets the token of the customer in the path through and names them', async () => {
    const res = await probe(t, '/probe/customers/C1000001/things', tokens.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json().customer).toEqual({
      customerId: 'C1000001',
      onBehalfOf: 'C1000001',
      sub: expect.any(String),
      // The sign-in grant, so a password change can end the customer's other sessions but this one.
      grantId: expect.any(String),
    });
    expect((await probe(t, '/probe/me', tokens.access_token)).statusCode).toBe(200);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a token', async () => {
    const res = await probe(t, '/probe/customers/C1000001/things');
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portal"');
    expect(res.json()).toEqual({
      code: 'UNAUTHORIZED',
      message: expect.any(String),
      correlationId: expect.any(String),
    });
    const basic = await t.app.inject({
      method: 'GET',
      url: '/probe/me',
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(401);
  });

  it("answers 404 for another customer's id, as for one that does not exist", async () => {
    const res = await probe(t, '/probe/customers/C1000002/things', tokens.access_token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    const none = await probe(t, '/probe/customers/C9999999/things', tokens.access_token);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(res.json().message);
  });

  it('refuses a token with the wrong audience, a status token and an ID token', async () => {
    const wrongAudience = await ownKeyToken({}, 'https://elsewhere.example/api');
    const statusToken = (await t.app.ctx.services.oidc.signStatusToken('C1000001')).token;
    for (const token of [wrongAudience, statusToken, tokens.id_token]) {
      const res = await probe(t, '/probe/me', token);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    }
  });

  it('refuses a token signed by another key, a tampered one and an unsigned one', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const forged = await new SignJWT({ customerId: 'C1000001', onBehalfOf: 'C1000001', scope: PORTAL_SCOPE })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setIssuer(oidcIssuer(t.config))
      .setAudience(apiAudience(t.config))
      .setSubject('x')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    const [h, p, s] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...claims, customerId: 'C1000002' })).toString('base64url'),
      s,
    ].join('.');
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    for (const token of [forged, tampered, unsigned, 'not-a-jwt']) {
      expect((await probe(t, '/probe/me', token)).statusCode).toBe(401);
    }
  });

  it('answers 403 insufficient_scope for a token without the portal scope', async () => {
    const res = await probe(t, '/probe/me', await ownKeyToken({ scope: 'openid' }));
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
  });

  it('refuses a token without the customer claims', async () => {
    const res = await probe(t, '/probe/me', await ownKeyToken({ customerId: undefined }));
    expect(res.statusCode).toBe(401);
  });

  it('refuses an expired token once the clock passes exp', async () => {
    const { access_token } = await signInTokens(t);
    expect((await probe(t, '/probe/me', access_token)).statusCode).toBe(200);
    t.clock.advance(t.config.oidc.accessTokenTtl * 1000 + 1000);
    const res = await probe(t, '/probe/me', access_token);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  describe('with a token verified before (taken from the cache of verified tokens)', () => {
    const expOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;

    it("still answers 404 for another customer's path, and names the same customer each time", async () => {
      const { access_token } = await signInTokens(t, MARGARET);
      for (let i = 0; i < 3; i += 1) {
        const own = await probe(t, '/probe/customers/C1000001/things', access_token);
        expect(own.statusCode).toBe(200);
        expect(own.json().customer.customerId).toBe('C1000001');
        expect((await probe(t, '/probe/customers/C1000002/things', access_token)).statusCode).toBe(404);
      }
    });

    it('accepts it up to the last second before exp and refuses it from exp on', async () => {
      const { access_token } = await signInTokens(t, MARGARET);
      const exp = expOf(access_token);
      expect((await probe(t, '/probe/me', access_token)).statusCode).toBe(200);
      t.clock.set(new Date((exp - 1) * 1000 + 999));
      expect((await probe(t, '/probe/me', access_token)).statusCode).toBe(200);
      t.clock.set(new Date(exp * 1000));
      const res = await probe(t, '/probe/me', access_token);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error_description="The access token expired"');
      // Still refused when asked again: a refusal is never kept as a success.
      expect((await probe(t, '/probe/me', access_token)).statusCode).toBe(401);
    });

    it('refuses it when the clock is set back before its nbf', async () => {
      const start = t.clock.now();
      const now = Math.floor(start.getTime() / 1000);
      const { current } = await t.app.ctx.services.oidc.keys();
      const token = await new SignJWT({ customerId: 'C1000001', onBehalfOf: 'C1000001', scope: PORTAL_SCOPE })
        .setProtectedHeader({ alg: current.alg, kid: current.kid, typ: 'at+jwt' })
        .setIssuer(oidcIssuer(t.config))
        .setAudience(apiAudience(t.config))
        .setSubject('00u-test')
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + 300)
        .sign(current.key);
      expect((await probe(t, '/probe/me', token)).statusCode).toBe(200);
      t.clock.set(new Date((now - 60) * 1000));
      expect((await probe(t, '/probe/me', token)).statusCode).toBe(401);
      t.clock.set(start);
      expect((await probe(t, '/probe/me', token)).statusCode).toBe(200);
    });
  });
});

describe('customer guard when the sign-in itself has gone (issue 38)', () => {
  let t: TestContext;
  beforeAll(async () => {
    // A sign-in of five minutes, access tokens of an hour: a token can outlive the sign-in it came from.
    t = await guardedApp({ OIDC_SESSION_TTL: '300', OIDC_ACCESS_TOKEN_TTL: '3600' });
  });
  afterAll(() => t.close());

  it('says a sign-in that ran out of time expired, and one ended (signed out elsewhere) ended', async () => {
    const timedOut = await signInTokens(t);
    const ended = await signInTokens(t);
    expect((await probe(t, '/probe/me', timedOut.access_token)).statusCode).toBe(200);

    // Signed out elsewhere: the sign-in's grant is deleted.
    const grantId = String(decodeJwt(ended.access_token)['gid']);
    await t.db.query(`DELETE FROM oidc_payload WHERE model = 'Grant' AND id = $1`, [grantId]);
    const refusedEnded = await probe(t, '/probe/me', ended.access_token);
    expect(refusedEnded.statusCode).toBe(401);
    expect(refusedEnded.headers['www-authenticate']).toContain(
      'error_description="The sign-in session has ended"',
    );

    t.clock.advance(301_000);
    const refusedExpired = await probe(t, '/probe/me', timedOut.access_token);
    expect(refusedExpired.statusCode).toBe(401);
    expect(refusedExpired.headers['www-authenticate']).toContain(
      'error_description="The sign-in session has expired"',
    );
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('customer guard on an instance without the identity module', () => {
  let identity: TestContext;
  let data: TestContext;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    identity = await guardedApp({ PUBLIC_URL: base });
    await (identity.app as FastifyInstance).listen({ port, host: '127.0.0.1' });
    // A data-only instance: same public URL (so the same audience), identity elsewhere, keys fetched; one
    // database for both, as in production (the sign-in sessions are there).
    data = await guardedApp(
      { PUBLIC_URL: base, MODULES: 'account,policy', IDENTITY_BASE_URL: base },
      new ManualClock(),
      identity.db,
    );
  });
  afterAll(async () => {
    await data?.close();
    await identity?.close();
  });

  it('verifies tokens against the published JWKS', async () => {
    expect(data.config.modules.has('identity')).toBe(false);
    const { access_token } = await signInTokens(identity, MARGARET);
    const res = await probe(data, '/probe/customers/C1000001/things', access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json().customer.customerId).toBe('C1000001');
    expect((await probe(data, '/probe/customers/C1000002/things', access_token)).statusCode).toBe(404);
  });

  it('answers 503, not 401, when the key set cannot be fetched', async () => {
    const { access_token } = await signInTokens(identity);
    // Port 9 (discard) is closed on the test machine: the fetch fails at once.
    const orphan = await guardedApp({
      PUBLIC_URL: base,
      MODULES: 'policy',
      IDENTITY_BASE_URL: 'http://127.0.0.1:9',
    });
    try {
      const res = await probe(orphan, '/probe/me', access_token);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'AUTH_UNAVAILABLE' });
    } finally {
      await orphan.close();
    }
  });
});
