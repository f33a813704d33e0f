import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { apiAudience, oidcIssuer } from '../../platform/auth-guard';
import { REDEMPTION_RACE_MS } from './adapter';
import type { CookieJar } from '../../../test/oidc-support';
import {
  authorize,
  DAVID,
  freshCustomer,
  MARGARET,
  pkcePair,
  sessionTokenFor,
  signInTokens,
  tokenRequest,
  type TokenSet,
} from '../../../test/oidc-support';

const callbackUrl = (t: TestContext) => `${t.config.publicUrl}/login/callback`;

/** An authorize request that should come back to the client with an error (no code, no page). */
async function authorizeError(t: TestContext, params: Record<string, string>, jar?: CookieJar) {
  const { callback } = await authorize(t, params, jar);
  expect(callback.searchParams.get('code')).toBeNull();
  return {
    error: callback.searchParams.get('error'),
    description: callback.searchParams.get('error_description'),
  };
}

async function codeFor(t: TestContext, sessionToken: string) {
  const { verifier, challenge } = pkcePair();
  const { callback, jar } = await authorize(t, {
    sessionToken,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return { code: callback.searchParams.get('code')!, verifier, jar };
}

const redeem = (t: TestContext, code: string, verifier: string) =>
  tokenRequest(t, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: callbackUrl(t),
  });

const refresh = (t: TestContext, refreshToken: string) =>
  tokenRequest(t, { grant_type: 'refresh_token', refresh_token: refreshToken });

const sessionMe = (t: TestContext, jar: CookieJar, method: 'GET' | 'DELETE' = 'GET') =>
  t.app.inject({
    method,
    url: '/api/v1/sessions/me',
    headers: { cookie: jar.header('/api/v1/sessions/me') },
  });

describe('OpenID Connect provider', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("publishes discovery at Okta's default authorization server paths, from configuration", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/oauth2/default/.well-known/openid-configuration',
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
    });
    expect(res.statusCode).toBe(200);
    const issuer = oidcIssuer(t.config);
    expect(res.json()).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/v1/authorize`,
      token_endpoint: `${issuer}/v1/token`,
      jwks_uri: `${issuer}/v1/keys`,
      end_session_endpoint: `${issuer}/v1/logout`,
      revocation_endpoint: `${issuer}/v1/revoke`,
      userinfo_endpoint: `${issuer}/v1/userinfo`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      // The SPA is a public client; the insurer's systems authenticate (docs/integration.md).
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
      scopes_supported: expect.arrayContaining(['openid', 'portal.customer']),
    });
  });

  it('issues tokens for a sessionToken: JWT access token for the portal APIs with the customer claims', async () => {
    const tokens = await signInTokens(t, MARGARET);
    const jwks = (
      await t.app.inject({ method: 'GET', url: '/oauth2/default/v1/keys' })
    ).json<JSONWebKeySet>();
    const keys = createLocalJWKSet(jwks);

    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    expect(decodeProtectedHeader(tokens.id_token)).toMatchObject({ alg: 'RS256' });
    const { payload: access } = await jwtVerify(tokens.access_token, keys, {
      issuer: oidcIssuer(t.config),
      audience: apiAudience(t.config),
      currentDate: t.clock.now(),
    });
    expect(access).toMatchObject({ customerId: MARGARET.customerId, onBehalfOf: MARGARET.customerId });
    expect(String(access.scope).split(' ')).toContain('portal.customer');
    expect(access.exp! - access.iat!).toBe(600);
    expect(tokens.expires_in).toBe(600);
    expect(tokens.token_type).toBe('Bearer');

    const { payload: id } = await jwtVerify(tokens.id_token, keys, {
      issuer: oidcIssuer(t.config),
      audience: 'portal-spa',
    });
    expect(id).toMatchObject({ sub: access.sub, customerId: MARGARET.customerId });
    // `openid portal.customer` asks for no email address (issue 38).
    expect(id).not.toHaveProperty('email');
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it('ends at the redirect_uri with login_required without a sessionToken, never showing a page', async () => {
    const { challenge } = pkcePair();
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    expect(await authorizeError(t, { ...pkce, prompt: 'none' })).toMatchObject({ error: 'login_required' });
    expect(await authorizeError(t, pkce)).toMatchObject({ error: 'login_required' });
  });

  it('refuses an unknown or already used sessionToken with login_required, and audits it', async () => {
    const { challenge } = pkcePair();
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    expect(await authorizeError(t, { ...pkce, sessionToken: 'made-up', prompt: 'none' })).toMatchObject({
      error: 'login_required',
    });

    const who = await freshCustomer(t);
    const sessionToken = await sessionTokenFor(t.app, who);
    const first = await authorize(t, { ...pkce, sessionToken, prompt: 'none' });
    expect(first.callback.searchParams.get('code')).toEqual(expect.any(String));
    // A second browser replaying the same token gets nothing.
    expect(await authorizeError(t, { ...pkce, sessionToken, prompt: 'none' })).toMatchObject({
      error: 'login_required',
    });

    const audit = await t.db.query<{
      is_success: boolean;
      failure_reason: string | null;
      customer_id: string | null;
    }>(
      "SELECT is_success, failure_reason, customer_id FROM audit_event WHERE event_id = 'oidc.authorize' ORDER BY id",
    );
    expect(audit.rows).toEqual(
      expect.arrayContaining([
        { is_success: false, failure_reason: 'invalid sessionToken', customer_id: null },
        { is_success: true, failure_reason: null, customer_id: who.customerId },
      ]),
    );
  });

  it('requires PKCE with S256', async () => {
    expect(await authorizeError(t, { sessionToken: 'x' })).toMatchObject({ error: 'invalid_request' });
    const { verifier } = pkcePair();
    expect(
      await authorizeError(t, {
        sessionToken: 'x',
        code_challenge: verifier,
        code_challenge_method: 'plain',
      }),
    ).toMatchObject({ error: 'invalid_request' });

    const { code } = await codeFor(t, await sessionTokenFor(t.app, await freshCustomer(t)));
    const wrong = await redeem(t, code, pkcePair().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
    const missing = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl(t),
    });
    expect(missing.statusCode).toBe(400);
  });

  it('gives exactly one success for 20 simultaneous redemptions of one code', async () => {
    const { code, verifier } = await codeFor(t, await sessionTokenFor(t.app, await freshCustomer(t)));
    const results = await Promise.all(Array.from({ length: 20 }, () => redeem(t, code, verifier)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ error: 'invalid_grant' });
    }
  });

  it('revokes what a code issued when the code is replayed later', async () => {
    const { code, verifier } = await codeFor(t, await sessionTokenFor(t.app, await freshCustomer(t)));
    const first = await redeem(t, code, verifier);
    expect(first.statusCode).toBe(200);
    // Later than a racing request could be (a copy presented at once only loses the race).
    t.clock.advance(REDEMPTION_RACE_MS);
    expect((await redeem(t, code, verifier)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(t, first.json<TokenSet>().refresh_token)).json()).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('rotates refresh tokens: the old one is dead, and replaying it ends the whole family', async () => {
    const tokens = await signInTokens(t);
    const next = await refresh(t, tokens.refresh_token);
    expect(next.statusCode).toBe(200);
    const rotated = next.json<TokenSet>();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(rotated.access_token)).toMatchObject({ customerId: tokens.who.customerId });

    t.clock.advance(REDEMPTION_RACE_MS);
    const replay = await refresh(t, tokens.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    // Reuse means the token leaked: the newer token of the same grant stops working too.
    expect((await refresh(t, rotated.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('signs a different customer in when a sessionToken arrives on a browser with a session', async () => {
    const first = await signInTokens(t);
    const davidToken = await sessionTokenFor(t.app, DAVID);
    const { verifier, challenge } = pkcePair();
    const { callback } = await authorize(
      t,
      { sessionToken: davidToken, prompt: 'none', code_challenge: challenge, code_challenge_method: 'S256' },
      first.jar,
    );
    const res = await redeem(t, callback.searchParams.get('code')!, verifier);
    expect(decodeJwt(res.json<TokenSet>().access_token)).toMatchObject({ customerId: DAVID.customerId });
    // The first customer's session was ended on the way, and with it their refresh token.
    expect((await refresh(t, first.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    const me = await sessionMe(t, first.jar);
    // David proved himself with a voice call: RFC 8176 'tel'.
    expect(me.json()).toMatchObject({ login: DAVID.login, amr: ['pwd', 'tel', 'mfa'] });
  });
});

describe('GET and DELETE /api/v1/sessions/me', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const notFound = {
    errorCode: 'E0000007',
    errorSummary: 'Not found: Resource not found: me (Session)',
    errorLink: 'E0000007',
    errorId: expect.any(String),
    errorCauses: [],
  };

  it("describes the browser's session as Okta does", async () => {
    const { jar, who } = await signInTokens(t);
    const res = await sessionMe(t, jar);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toEqual({
      id: expect.any(String),
      userId: expect.stringMatching(/^00u/),
      login: who.login,
      createdAt: t.clock.now().toISOString(),
      expiresAt: new Date(t.clock.now().getTime() + t.config.oidc.sessionTtl * 1000).toISOString(),
      status: 'ACTIVE',
      lastPasswordVerification: t.clock.now().toISOString(),
      lastFactorVerification: t.clock.now().toISOString(),
      amr: ['pwd', 'sms', 'mfa'],
      idp: { id: null, type: 'OKTA' },
      mfaActive: true,
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 404 E0000007 without a session or with a forged cookie', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/sessions/me' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual(notFound);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v1/sessions/me',
      headers: { cookie: '_session=abc; _session.sig=def' },
    });
    expect(forged.statusCode).toBe(404);
    // A session id without its signature is not accepted either.
    const { jar } = await signInTokens(t);
    const unsigned = jar
      .header('/')
      .split('; ')
      .filter((c) => !c.startsWith('_session.sig='))
      .join('; ');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/sessions/me',
      headers: { cookie: unsigned },
    });
    expect(res.statusCode).toBe(404);
  });

  it('DELETE signs out: the session and its refresh tokens end', async () => {
    const { jar, refresh_token, who } = await signInTokens(t);
    const res = await sessionMe(t, jar, 'DELETE');
    expect(res.statusCode).toBe(204);
    jar.store(res.headers['set-cookie'] as string[]);
    expect(jar.header('/')).not.toContain('_session=');

    expect((await sessionMe(t, jar)).statusCode).toBe(404);
    expect((await refresh(t, refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await sessionMe(t, jar, 'DELETE')).json()).toEqual(notFound);

    const audit = await t.db.query(
      "SELECT customer_id FROM audit_event WHERE event_id = 'oidc.session.ended'",
    );
    expect(audit.rows).toContainEqual({ customer_id: who.customerId });
  });

  it('DELETE with a JSON content type and no body (what okta-auth-js sends) signs out too', async () => {
    const { jar } = await signInTokens(t);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/sessions/me',
      headers: { cookie: jar.header('/api/v1/sessions/me'), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(204);
    expect((await sessionMe(t, jar)).statusCode).toBe(404);
  });

  it('ends the session and its refresh tokens when the session lifetime passes on the clock', async () => {
    const { jar, refresh_token } = await signInTokens(t);
    t.clock.advance(t.config.oidc.sessionTtl * 1000 - 60_000);
    expect((await sessionMe(t, jar)).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await sessionMe(t, jar)).statusCode).toBe(404);
    expect((await refresh(t, refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('status token', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is a 5-minute JWT for the customer, with its own audience', async () => {
    const { token, expiresAt } = await t.app.ctx.services.oidc.signStatusToken('C1000001');
    expect(expiresAt.getTime() - t.clock.now().getTime()).toBe(5 * 60_000);
    expect(decodeJwt(token)).toMatchObject({ aud: 'status-token', sub: 'C1000001', customerId: 'C1000001' });
    expect(await t.app.ctx.services.oidc.verifyStatusToken(token)).toEqual({ customerId: 'C1000001' });
    t.clock.advance(5 * 60_000 + 1000);
    expect(await t.app.ctx.services.oidc.verifyStatusToken(token)).toBeNull();
    expect(await t.app.ctx.services.oidc.verifyStatusToken('garbage')).toBeNull();
  });
});
