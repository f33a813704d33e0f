/**
 * Test support: signs a demo customer in through the real APIs (Okta authn + code from the outbox, then
 * the OpenID authorize/token endpoints with PKCE) and returns their tokens. Other modules' route tests may
 * use `signInTokens` to get a real access token.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TestContext } from './helpers';
import { createTestUser, david, margaret, signInFully } from './identity-support';
import { PORTAL_CLIENT_ID } from '../src/modules/oidc/provider';

/** A minimal browser cookie jar: name/value per path, honouring deletion. */
export class CookieJar {
  private cookies = new Map<string, { value: string; path: string }>();

  store(setCookie: string | string[] | undefined): void {
    for (const line of ([] as string[]).concat(setCookie ?? [])) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired =
        attrs.some((a) => /^expires=.*1970/i.test(a)) || attrs.some((a) => /^max-age=0$/i.test(a));
      const key = `${name};${path}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  /** Forgets every cookie: a fresh browser. */
  clear(): void {
    this.cookies.clear();
  }

  /** The Cookie header a browser would send to this path. */
  header(urlPath: string): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => urlPath.startsWith(c.path))
      .map(([key, c]) => `${key.split(';')[0]}=${c.value}`)
      .join('; ');
  }
}

/** Who signs in: login, password, the phone the code goes to and the factor used. */
export interface Who {
  login: string;
  password: string;
  phone: string;
  factor: 'sms' | 'call';
  customerId: string;
}

/** The seeded demo customers (their sends count against the per-account hourly code limit). */
export const MARGARET: Who = {
  login: margaret.email,
  password: margaret.password,
  phone: margaret.mobile,
  factor: 'sms',
  customerId: margaret.customerId,
};
export const DAVID: Who = {
  login: david.email,
  password: david.password,
  phone: david.landline,
  factor: 'call',
  customerId: david.customerId,
};

/** A fresh ACTIVE account of this test alone (the code limits are per account, so tests stay independent). */
export async function freshCustomer(t: TestContext): Promise<Who> {
  const user = await createTestUser(t.db, { now: t.clock.now() });
  return {
    login: user.login,
    password: user.password,
    phone: user.mobile!,
    factor: 'sms',
    customerId: user.customerId,
  };
}

/** Okta authn with password, then the factor with the code read from the dev outbox: a sessionToken. */
export function sessionTokenFor(app: FastifyInstance, who: Who): Promise<string> {
  return signInFully(app, who.login, who.password, who.phone, who.factor);
}

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Path and query of an absolute or relative URL, for app.inject. */
const local = (url: string) => {
  const u = new URL(url, 'http://internal');
  return `${u.pathname}${u.search}`;
};

export interface AuthorizeResult {
  /** The final redirect to the client's redirect_uri. */
  callback: URL;
  jar: CookieJar;
}

/**
 * Runs an authorize request in-process as a browser would: follows the provider's redirects (through its
 * interaction step) until the client's redirect_uri, keeping cookies.
 */
export async function authorize(
  t: TestContext,
  params: Record<string, string>,
  jar = new CookieJar(),
  browser: { userAgent?: string; remoteAddress?: string } = {},
): Promise<AuthorizeResult> {
  const redirectUri = params['redirect_uri'] ?? `${t.config.publicUrl}/login/callback`;
  const query = new URLSearchParams({
    client_id: PORTAL_CLIENT_ID,
    response_type: 'code',
    scope: `openid portal.customer`,
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    ...params,
  });
  let request: { method: 'GET' | 'POST'; url: string; form?: Record<string, string> } = {
    method: 'GET',
    url: `/oauth2/default/v1/authorize?${query.toString()}`,
  };
  for (let hop = 0; hop < 12; hop++) {
    const path = local(request.url).split('?')[0]!;
    const res = await t.app.inject({
      method: request.method,
      url: local(request.url),
      ...(browser.remoteAddress ? { remoteAddress: browser.remoteAddress } : {}),
      headers: {
        ...(browser.userAgent ? { 'user-agent': browser.userAgent } : {}),
        cookie: jar.header(path),
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(request.form ? { payload: new URLSearchParams(request.form).toString() } : {}),
    });
    jar.store(res.headers['set-cookie'] as string | string[] | undefined);
    const location = res.headers.location;
    if (res.statusCode === 200 && autoSubmitForm(res.body)) {
      // The provider's self-submitting form (e.g. ending another account's session first): post it as
      // a browser would, checking the page's CSP lets its one inline script run.
      const csp = String(res.headers['content-security-policy'] ?? '');
      if (!/script-src[^;]*'sha256-/.test(csp)) throw new Error(`form page without a script hash: ${csp}`);
      request = { method: 'POST', ...autoSubmitForm(res.body)! };
      continue;
    }
    if (res.statusCode < 300 || res.statusCode >= 400 || typeof location !== 'string') {
      throw new Error(`authorize stopped at ${res.statusCode}: ${res.body.slice(0, 1500)}`);
    }
    const next = new URL(location, t.config.publicUrl);
    if (next.href.startsWith(redirectUri)) return { callback: next, jar };
    request = { method: 'GET', url: next.href };
  }
  throw new Error('too many redirects');
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(
      /&(amp|lt|gt|quot);/g,
      (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e as 'amp']!,
    );

/** The action and fields of the first POST form of a page, or undefined when it has none. */
export function autoSubmitForm(html: string): { url: string; form: Record<string, string> } | undefined {
  const form = /<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[unescapeHtml(name)] = unescapeHtml(value);
  }
  return { url: unescapeHtml(form[1]!), form: fields };
}

export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

/** POSTs to the token endpoint (form encoded, public client). */
export function tokenRequest(t: TestContext, form: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth2/default/v1/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ client_id: PORTAL_CLIENT_ID, ...form }).toString(),
  });
}

/**
 * A complete sign-in through the real APIs: sessionToken -> authorize (PKCE S256) -> code -> tokens, plus
 * the browser's cookies. Signs in a fresh test customer unless `who` is given.
 */
export async function signInTokens(
  t: TestContext,
  who?: Who,
  scope?: string,
): Promise<TokenSet & { jar: CookieJar; who: Who }> {
  const customer = who ?? (await freshCustomer(t));
  const sessionToken = await sessionTokenFor(t.app, customer);
  const { verifier, challenge } = pkcePair();
  const { callback, jar } = await authorize(t, {
    ...(scope ? { scope } : {}),
    sessionToken,
    prompt: 'none',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  const res = await tokenRequest(t, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: `${t.config.publicUrl}/login/callback`,
  });
  if (res.statusCode !== 200) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
  return { ...res.json<TokenSet>(), jar, who: customer };
}
