import { createServer } from 'node:net';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import { autoSubmitForm, CookieJar, MARGARET, sessionTokenFor } from '../../../test/oidc-support';

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

/**
 * Follows a browser navigation over real HTTP: redirects and self-submitting forms, keeping cookies,
 * until a URL under `stopAt`. Fails if a page would need a person (there is no login or consent page).
 */
async function browse(start: URL, jar: CookieJar, stopAt: string): Promise<URL> {
  let request: { url: URL; form?: Record<string, string> } = { url: start };
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(request.url, {
      method: request.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(request.url.pathname),
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(request.form ? { body: new URLSearchParams(request.form).toString() } : {}),
    });
    jar.store(res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, request.url);
      if (next.href.startsWith(stopAt)) return next;
      request = { url: next };
      continue;
    }
    const html = await res.text();
    const form = res.status === 200 ? autoSubmitForm(html) : undefined;
    if (!form) throw new Error(`navigation stopped at ${res.status}: ${html.slice(0, 500)}`);
    // The page submits itself with one inline script; the CSP must allow exactly that script.
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[^']+'/);
    request = { url: new URL(form.url), form: form.form };
  }
  throw new Error('too many hops');
}

describe('OpenID Connect with a standard client (openid-client) over HTTP', () => {
  let t: TestContext;
  let base: string;
  let config: client.Configuration;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The provider checks its own codes and ID tokens on the system clock; start the test clock there.
    t = await createTestApp({ PUBLIC_URL: base }, { clock: new ManualClock(new Date()) });
    await t.app.listen({ port, host: '127.0.0.1' });
    config = await client.discovery(
      new URL(`${base}/oauth2/default`),
      'portal-spa',
      undefined,
      client.None(),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    // Also check ID token signatures against the JWKS, not only their claims.
    client.enableNonRepudiationChecks(config);
  });
  afterAll(() => t.close());

  it('discovers, authorizes with a sessionToken and PKCE, exchanges, verifies, refreshes and ends the session', async () => {
    const issuer = `${base}/oauth2/default`;
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.authorization_endpoint).toBe(`${issuer}/v1/authorize`);
    expect(metadata.jwks_uri).toBe(`${issuer}/v1/keys`);

    // Authorize: Okta's prompt=none with the one-time sessionToken; no page is shown at any step.
    const sessionToken = await sessionTokenFor(t.app, MARGARET);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizeUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: `${base}/login/callback`,
      scope: 'openid portal.customer',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      prompt: 'none',
      sessionToken,
    });
    const jar = new CookieJar();
    const callback = await browse(authorizeUrl, jar, `${base}/login/callback`);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({
      iss: issuer,
      aud: 'portal-spa',
      customerId: MARGARET.customerId,
      sub: expect.stringMatching(/^00u/),
    });
    // Only what its scopes allow: `openid portal.customer` asks for no email address.
    expect(tokens.claims()).not.toHaveProperty('email');

    // Access token: a JWT for the portal APIs, verified against the published JWKS.
    const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri!));
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer,
      audience: `${base}/api`,
      currentDate: t.clock.now(),
    });
    expect(payload).toMatchObject({
      customerId: MARGARET.customerId,
      onBehalfOf: MARGARET.customerId,
      sub: tokens.claims()!.sub,
      client_id: 'portal-spa',
    });
    expect(String(payload.scope).split(' ')).toContain('portal.customer');
    await jwtVerify(tokens.id_token!, jwks, { issuer, audience: 'portal-spa' });

    // The browser session is visible to the SPA.
    const me = await fetch(`${base}/api/v1/sessions/me`, {
      headers: { cookie: jar.header('/api/v1/sessions/me') },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ login: MARGARET.login, status: 'ACTIVE' });

    // Refresh rotates: the new refresh token works, the old one does not.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await jwtVerify(refreshed.access_token, jwks, {
      issuer,
      audience: `${base}/api`,
      currentDate: t.clock.now(),
    });
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // End session (RP-initiated logout): back to the SPA's login page, and the session is gone.
    const second = await signInAgain();
    const endUrl = client.buildEndSessionUrl(config, {
      id_token_hint: second.tokens.id_token!,
      post_logout_redirect_uri: `${base}/login`,
      state: 'bye',
    });
    const after = await browse(endUrl, second.jar, `${base}/login`);
    expect(after.href).toBe(`${base}/login?state=bye`);
    const gone = await fetch(`${base}/api/v1/sessions/me`, {
      headers: { cookie: second.jar.header('/api/v1/sessions/me') },
    });
    expect(gone.status).toBe(404);
    await expect(client.refreshTokenGrant(config, second.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  async function signInAgain() {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const jar = new CookieJar();
    const callback = await browse(
      client.buildAuthorizationUrl(config, {
        redirect_uri: `${base}/login/callback`,
        scope: 'openid portal.customer',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        sessionToken: await sessionTokenFor(t.app, MARGARET),
      }),
      jar,
      `${base}/login/callback`,
    );
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    return { tokens, jar };
  }

  it('answers login_required to a client without a sessionToken, and refuses a code without PKCE', async () => {
    const state = client.randomState();
    const verifier = client.randomPKCECodeVerifier();
    const callback = await browse(
      client.buildAuthorizationUrl(config, {
        redirect_uri: `${base}/login/callback`,
        scope: 'openid portal.customer',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        prompt: 'none',
      }),
      new CookieJar(),
      `${base}/login/callback`,
    );
    await expect(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({ error: 'login_required' });

    const noPkce = await browse(
      client.buildAuthorizationUrl(config, {
        redirect_uri: `${base}/login/callback`,
        scope: 'openid portal.customer',
        state,
      }),
      new CookieJar(),
      `${base}/login/callback`,
    );
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
  });
});
