/**
 * Compatibility with Okta's own JavaScript SDK (@okta/okta-auth-js 8), unchanged, against the real
 * server on a real port: what a team moving between this identity service and a real Okta org relies on
 * (docs/decisions/013-okta-compatibility.md).
 *
 * The SDK runs in Node as a Node user would run it: its own calls, with Node's fetch. The one thing a
 * browser gives it that Node does not is a cookie store, so `fetch` here keeps cookies for the server's
 * origin (what fetch-cookie and the like do for a Node user). `token.getWithoutPrompt` needs a browser
 * iframe and a parent window to post to, which Node has not: its authorize request (the SDK's own
 * parameters, from `token.prepareTokenParams`) is loaded as the iframe would load it, and the page the
 * server answers is checked (framing, script, the message and its target origin); the code it carries
 * then goes through the SDK's `token.exchangeCodeForTokens`, as the SDK does with the message.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { OktaAuth, TokenKind, type TokenParams, type Tokens } from '@okta/okta-auth-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import { createTestUser } from '../../../test/identity-support';
import { CookieJar, freshCustomer, type Who } from '../../../test/oidc-support';
import { PORTAL_CLIENT_ID } from './provider';

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

/** What the server's okta_post_message page posts: the message and the origin it may go to. */
interface PostedMessage {
  data: Record<string, string>;
  targetOrigin: string;
  csp: string;
  frameOptions: string | null;
}

describe('Okta SDK (okta-auth-js 8) against the identity service, unchanged', () => {
  let t: TestContext;
  let base: string;
  let issuer: string;
  const jar = new CookieJar();
  const realFetch = globalThis.fetch;

  /** Node's fetch with a browser's cookie store for the server's origin. */
  const browserFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    if (url.origin === base) {
      const cookie = jar.header(url.pathname);
      if (cookie) headers.set('cookie', cookie);
    }
    const res = await realFetch(input, { ...init, headers });
    if (url.origin === base) jar.store(res.headers.getSetCookie());
    return res;
  };

  const newClient = () =>
    new OktaAuth({
      issuer,
      clientId: PORTAL_CLIENT_ID,
      redirectUri: `${base}/login/callback`,
      scopes: ['openid', 'portal.customer'],
      pkce: true,
      tokenManager: { autoRenew: false },
    });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    issuer = `${base}/oauth2/default`;
    // The SDK checks ID tokens against the system clock: start the test clock there.
    t = await createTestApp({ PUBLIC_URL: base }, { clock: new ManualClock(new Date()) });
    await t.app.listen({ port, host: '127.0.0.1' });
    vi.stubGlobal('fetch', browserFetch);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await t.close();
  });

  /** The newest code texted to a number, read from the dev outbox as a person would. */
  async function codeSentTo(phone: string): Promise<string> {
    const res = await fetch(`${base}/dev/outbox/api?to=${encodeURIComponent(phone)}`);
    const { messages } = (await res.json()) as { messages: Array<{ body: string }> };
    const match = /code is ([\d, ]+)\./.exec(messages[0]?.body ?? '');
    if (!match?.[1]) throw new Error(`no code sent to ${phone}`);
    return match[1].replace(/\D/g, '');
  }

  /** Password, then the text message factor and its code: the SDK's authn calls. */
  async function signInWithMfa(authClient: OktaAuth, who: Who): Promise<string> {
    const primary = await authClient.signInWithCredentials({ username: who.login, password: who.password });
    expect(primary.status).toBe('MFA_REQUIRED');
    const sms = primary.factors!.find((f) => f.factorType === 'sms')!;
    const challenge = await sms.verify!();
    expect(challenge.status).toBe('MFA_CHALLENGE');
    const done = await challenge.verify!({ passCode: await codeSentTo(who.phone) });
    expect(done.status).toBe('SUCCESS');
    return done.sessionToken!;
  }

  /**
   * Loads an authorize URL as the SDK's hidden iframe would (redirects followed, cookies kept) and reads
   * the final okta_post_message page.
   */
  async function loadInFrame(url: string): Promise<PostedMessage> {
    let next = url;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(next, { redirect: 'manual', headers: { 'sec-fetch-dest': 'iframe' } });
      const location = res.headers.get('location');
      if (location) {
        next = new URL(location, next).href;
        continue;
      }
      const html = await res.text();
      const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
      const call = script && /^window\.parent\.postMessage\((\{[\s\S]*\}), ("[^"]+")\);$/.exec(script);
      if (!call) throw new Error(`no okta_post_message page (${res.status}): ${html.slice(0, 500)}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      // The browser runs that script only if the page's CSP names its hash.
      const hash = createHash('sha256').update(script).digest('base64');
      expect(csp).toContain(`'sha256-${hash}'`);
      return {
        data: JSON.parse(call[1]!) as Record<string, string>,
        targetOrigin: JSON.parse(call[2]!) as string,
        csp,
        frameOptions: res.headers.get('x-frame-options'),
      };
    }
    throw new Error('too many redirects');
  }

  /** `token.getWithoutPrompt(options)` up to the message; then what the SDK does with the message. */
  async function withoutPrompt(authClient: OktaAuth, options: { sessionToken?: string } = {}) {
    const tokenParams: TokenParams = await authClient.token.prepareTokenParams({
      ...options,
      prompt: 'none',
      responseMode: 'okta_post_message',
    });
    const query = new URLSearchParams({
      client_id: tokenParams.clientId!,
      code_challenge: tokenParams.codeChallenge!,
      code_challenge_method: tokenParams.codeChallengeMethod!,
      nonce: tokenParams.nonce!,
      prompt: 'none',
      redirect_uri: tokenParams.redirectUri!,
      response_mode: 'okta_post_message',
      response_type: 'code',
      state: tokenParams.state!,
      scope: tokenParams.scopes!.join(' '),
      ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}),
    });
    const posted = await loadInFrame(`${issuer}/v1/authorize?${query.toString()}`);
    return { tokenParams, posted };
  }

  async function tokensWithoutPrompt(authClient: OktaAuth, options: { sessionToken?: string } = {}) {
    const { tokenParams, posted } = await withoutPrompt(authClient, options);
    expect(posted.targetOrigin).toBe(base);
    expect(posted.data.state).toBe(tokenParams.state);
    expect(posted.data.code).toEqual(expect.any(String));
    // Only this answer may be framed, only by the registered origin.
    expect(posted.csp).toContain(`frame-ancestors ${base}`);
    expect(posted.frameOptions).toBeNull();
    const { tokens } = await authClient.token.exchangeCodeForTokens({
      ...tokenParams,
      authorizationCode: posted.data.code!,
    });
    return tokens;
  }

  it('signs in with MFA, gets verified RS256 tokens, userinfo, refreshes with an ID token, revokes and signs out', async () => {
    const who = await freshCustomer(t);
    const authClient = newClient();

    // Sign-in with MFA (authn API), then silent sign-in with the sessionToken (getWithoutPrompt).
    const sessionToken = await signInWithMfa(authClient, who);
    const tokens: Tokens = await tokensWithoutPrompt(authClient, { sessionToken });
    authClient.tokenManager.setTokens(tokens);
    const { accessToken, idToken, refreshToken } = tokens;
    expect(accessToken!.scopes).toEqual(expect.arrayContaining(['openid', 'portal.customer']));
    expect(idToken!.claims).toMatchObject({
      iss: issuer,
      aud: PORTAL_CLIENT_ID,
      customerId: who.customerId,
    });
    // The claims of its scopes only (openid portal.customer): no email address (issue 38).
    expect(idToken!.claims).not.toHaveProperty('email');
    expect(refreshToken!.refreshToken).toEqual(expect.any(String));

    // The SDK verifies ID tokens itself (RS256 only, against /v1/keys).
    await expect(authClient.token.verify(idToken!)).resolves.toBe(idToken);

    // userinfo answers for the access token we issued: the claims of its scopes (openid portal.customer),
    // no email without the email scope.
    const userInfo = await authClient.token.getUserInfo();
    expect(userInfo).toMatchObject({ sub: idToken!.claims.sub, customerId: who.customerId });
    expect(userInfo).not.toHaveProperty('email');

    // Okta's session for the browser.
    await expect(authClient.session.exists()).resolves.toBe(true);

    // Silent renewal: prompt=none in the frame, on the session cookie alone.
    const renewedSilently = await tokensWithoutPrompt(authClient);
    expect(renewedSilently.idToken!.claims.sub).toBe(idToken!.claims.sub);

    // Refresh (the SDK asks with the scopes of the token response): a new ID token comes back.
    const refreshed = await authClient.token.renewTokens();
    expect(refreshed.idToken?.idToken).toEqual(expect.any(String));
    expect(refreshed.idToken!.claims.sub).toBe(idToken!.claims.sub);
    expect(refreshed.refreshToken!.refreshToken).not.toBe(refreshToken!.refreshToken);
    await authClient.token.verify(refreshed.idToken!);
    authClient.tokenManager.setTokens(refreshed);

    // Introspection and revocation with the SDK's public-client Basic header.
    // (The token is passed: okta-auth-js 8 reads its own storage synchronously here and finds nothing.)
    await expect(
      authClient.token.introspect(TokenKind.REFRESH, refreshed.refreshToken),
    ).resolves.toMatchObject({
      active: true,
      client_id: PORTAL_CLIENT_ID,
    });
    await authClient.revokeRefreshToken();
    await authClient.revokeAccessToken();
    await expect(
      authClient.token.introspect(TokenKind.REFRESH, refreshed.refreshToken),
    ).resolves.toMatchObject({
      active: false,
    });
    await expect(
      authClient.token.renewTokens({ tokens: { refreshToken: refreshed.refreshToken! } }),
    ).rejects.toMatchObject({ errorCode: 'invalid_grant' });

    // Sign-out: the SDK's closeSession (DELETE /api/v1/sessions/me, JSON content type, no body).
    await expect(authClient.closeSession()).resolves.toBe(true);
    await expect(authClient.session.exists()).resolves.toBe(false);

    // With the session gone, silent sign-in reports login_required to the page, with the state.
    const { tokenParams, posted } = await withoutPrompt(newClient());
    expect(posted.targetOrigin).toBe(base);
    expect(posted.data).toMatchObject({ state: tokenParams.state, error: 'login_required' });
  });

  it('resumes and introspects a sign-in with tx.resume() and tx.introspect(), then finishes it', async () => {
    const who = await freshCustomer(t);
    const authClient = newClient();
    const primary = await authClient.signInWithCredentials({ username: who.login, password: who.password });
    expect(primary.status).toBe('MFA_REQUIRED');
    // The SDK keeps the raw answer on `data` (its types leave it out); the stateToken is there.
    const stateToken = (primary as unknown as { data: { stateToken: string } }).data.stateToken;
    expect(stateToken).toMatch(/^00/);

    // POST /api/v1/authn {stateToken}: the transaction as it stands, with its factors to go on with.
    const resumed = await authClient.tx.resume({ stateToken });
    expect(resumed.status).toBe('MFA_REQUIRED');
    const sms = resumed.factors!.find((f) => f.factorType === 'sms')!;
    expect((await sms.verify!()).status).toBe('MFA_CHALLENGE');

    // POST /api/v1/authn/introspect: the challenge, and its verify link works from the introspected one.
    const introspected = await authClient.tx.introspect({ stateToken });
    expect(introspected.status).toBe('MFA_CHALLENGE');
    const done = await introspected.verify!({ passCode: await codeSentTo(who.phone) });
    expect(done.status).toBe('SUCCESS');

    // Finished: the stateToken is spent, as Okta answers it.
    await expect(authClient.tx.resume({ stateToken })).rejects.toMatchObject({ errorCode: 'E0000011' });
  });

  it('posts nothing to an origin that is not registered, and other answers still refuse framing', async () => {
    const authClient = newClient();
    const tokenParams = await authClient.token.prepareTokenParams({ prompt: 'none' });
    const query = new URLSearchParams({
      client_id: PORTAL_CLIENT_ID,
      code_challenge: tokenParams.codeChallenge!,
      code_challenge_method: 'S256',
      prompt: 'none',
      redirect_uri: 'https://attacker.example/callback',
      response_mode: 'okta_post_message',
      response_type: 'code',
      state: tokenParams.state!,
      scope: 'openid',
    });
    const res = await fetch(`${issuer}/v1/authorize?${query.toString()}`, { redirect: 'manual' });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).not.toContain('postMessage');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(discovery.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await discovery.json()).toMatchObject({
      id_token_signing_alg_values_supported: expect.arrayContaining(['RS256']),
    });
  });

  it('accepts Basic base64(client_id:) from the public client at revocation and introspection', async () => {
    const revoke = await fetch(`${issuer}/v1/revoke`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${PORTAL_CLIENT_ID}:`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'token=unknown-token&token_type_hint=refresh_token',
    });
    expect(revoke.status).toBe(200);
    // A secret for a client that has none is still refused.
    const withSecret = await fetch(`${issuer}/v1/introspect`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${PORTAL_CLIENT_ID}:guess`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'token=unknown-token',
    });
    expect(withSecret.status).toBe(401);
    expect(await withSecret.json()).toMatchObject({ error: 'invalid_client' });
  });

  it("answers unknown paths and methods under /api/v1 in Okta's envelope, other services' in ours", async () => {
    const okta = { errorLink: expect.any(String), errorId: expect.any(String), errorCauses: [] };
    const method = await fetch(`${base}/api/v1/authn`, { method: 'GET' });
    expect(method.status).toBe(405);
    expect(await method.json()).toEqual({
      ...okta,
      errorCode: 'E0000022',
      errorSummary: 'The endpoint does not support the provided HTTP method',
    });
    expect(method.headers.get('allow')).toBe('POST');

    const path = await fetch(`${base}/api/v1/sessions/me/lifecycle/refresh`, { method: 'POST' });
    expect(path.status).toBe(404);
    expect(await path.json()).toEqual({
      ...okta,
      errorCode: 'E0000007',
      errorSummary: 'Not found: Resource not found: /api/v1/sessions/me/lifecycle/refresh',
    });

    const users = await fetch(`${base}/api/v1/users/me`);
    expect(users.status).toBe(404);
    expect(await users.json()).toMatchObject({ errorCode: 'E0000007' });

    const other = await fetch(`${base}/api/v1/policy-unknown/x`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Not found',
      correlationId: expect.any(String),
    });
  });

  it('ends no session and answers 404 E0000007 to DELETE /api/v1/sessions/me without one, whatever the body', async () => {
    const res = await realFetch(`${base}/api/v1/sessions/me`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ errorCode: 'E0000007' });
  });

  it('verifies an authenticator app factor (token:software:totp) with its own calls, codes from the same library', async () => {
    const who = await freshCustomer(t);
    const enrolment = await t.app.ctx.services.identity.enrolTotp(who.customerId);
    const codeNow = () =>
      TOTP.generate({ secret: Secret.fromBase32(enrolment.key), timestamp: t.clock.now().getTime() });
    // Confirmed with the previous step's code (one step of drift), so the current one is still new.
    const previousCode = TOTP.generate({
      secret: Secret.fromBase32(enrolment.key),
      timestamp: t.clock.now().getTime() - 30_000,
    });
    await t.app.ctx.services.identity.activateTotp(who.customerId, enrolment.id, previousCode);

    const authClient = newClient();
    const primary = await authClient.signInWithCredentials({ username: who.login, password: who.password });
    expect(primary.status).toBe('MFA_REQUIRED');
    const app = primary.factors!.find((f) => f.factorType === 'token:software:totp')!;
    expect(app).toMatchObject({ id: enrolment.id, provider: 'GOOGLE' });
    // A wrong code is the SDK's AuthApiError with Okta's code; the transaction stays usable.
    const wrongCode = codeNow().replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    await expect(app.verify!({ passCode: wrongCode })).rejects.toMatchObject({ errorCode: 'E0000068' });
    const done = await app.verify!({ passCode: codeNow() });
    expect(done.status).toBe('SUCCESS');

    const tokens = await tokensWithoutPrompt(authClient, { sessionToken: done.sessionToken! });
    expect(tokens.idToken!.claims).toMatchObject({ customerId: who.customerId });
  });

  it('sets up an app from MFA_ENROLL with factor.enroll() and tx.activate(), then signs in with it', async () => {
    // Another browser (the jar has another customer's session from the tests before).
    jar.clear();
    // A customer with no phone number and no app: nothing to verify with, so Okta's enrolment.
    const user = await createTestUser(t.db, { mobile: false, now: t.clock.now() });
    const authClient = newClient();
    const primary = await authClient.signInWithCredentials({ username: user.login, password: user.password });
    expect(primary.status).toBe('MFA_ENROLL');
    const offered = primary.factors!.find((f) => f.factorType === 'token:software:totp')!;
    expect(offered).toMatchObject({ provider: 'GOOGLE', status: 'NOT_SETUP', enrollment: 'REQUIRED' });

    // The SDK's own enrol call posts {stateToken, factorType, provider} to the factor's enroll link.
    const pending = await offered.enroll!();
    expect(pending.status).toBe('MFA_ENROLL_ACTIVATE');
    const activation = pending.factor!.activation as {
      sharedSecret: string;
      timeStep: number;
      encoding: string;
      qrcode: { href: string; type: string };
    };
    expect(activation).toMatchObject({ timeStep: 30, encoding: 'base32' });
    // A typed link is handed over as it is: an image the page can show.
    expect(activation.qrcode).toMatchObject({
      type: 'image/png',
      href: expect.stringMatching(/^data:image\/png;base64,/),
    });
    const codeAt = (ms: number) =>
      TOTP.generate({ secret: Secret.fromBase32(activation.sharedSecret), timestamp: ms });

    // A wrong first code is the SDK's AuthApiError with Okta's code; the right one signs in.
    const right = codeAt(t.clock.now().getTime());
    const wrong = right.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    await expect(pending.activate!({ passCode: wrong })).rejects.toMatchObject({ errorCode: 'E0000068' });
    const done = await pending.activate!({ passCode: right });
    expect(done.status).toBe('SUCCESS');
    const tokens = await tokensWithoutPrompt(authClient, { sessionToken: done.sessionToken! });
    expect(tokens.idToken!.claims).toMatchObject({ customerId: user.customerId });

    // Later: MFA_REQUIRED with the app, verified with the SDK's own call and the app's next code.
    t.clock.advance(30_000);
    const later = await newClient().signInWithCredentials({ username: user.login, password: user.password });
    expect(later.status).toBe('MFA_REQUIRED');
    const app = later.factors!.find((f) => f.factorType === 'token:software:totp')!;
    expect(app).toMatchObject({ id: pending.factor!.id, provider: 'GOOGLE' });
    const verified = await app.verify!({ passCode: codeAt(t.clock.now().getTime()) });
    expect(verified.status).toBe('SUCCESS');
  });
});
