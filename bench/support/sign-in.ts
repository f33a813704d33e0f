/**
 * Shared by the benchmarks: signs a demo customer in over HTTP the way the SPA does, with no browser:
 * Okta-style primary authentication (password), a code by text or call read from the dev outbox, then
 * the OpenID authorize request with the one-time sessionToken and PKCE (prompt=none, following the
 * provider's redirects and self-submitting forms with cookies) and the token exchange. Each sign-in
 * sends one code, which counts against the account's hourly code limit (10 an hour).
 */
import { createHash, randomBytes } from 'node:crypto';
import { codeIn } from '../../e2e/auth-helpers';
import { sleep } from './portal';

/** A registered demo customer (apps/server/src/db/demo/customers.ts, the README's table). */
export interface DemoCustomer {
  customerId: string;
  email: string;
  password: string;
  /** The number codes are sent to, and how: a text (6 digits) or a call (5 digits to a landline). */
  phone: string;
  factor: 'sms' | 'call';
}

/** The registered demo customers; David has only a landline, so his codes come by call. */
export const demoCustomers = {
  margaret: {
    customerId: 'C1000001',
    email: 'margaret.thompson@example.co.uk',
    password: 'BluebellCottage1952',
    phone: '07700900123',
    factor: 'sms',
  },
  david: {
    customerId: 'C1000002',
    email: 'david.okafor@example.co.uk',
    password: 'HomeFarmHarvest61',
    phone: '01632960789',
    factor: 'call',
  },
  james: {
    customerId: 'C1000006',
    email: 'james.carter@example.co.uk',
    password: 'WeaversRowHexham90',
    phone: '07700900222',
    factor: 'sms',
  },
  helen: {
    customerId: 'C1000007',
    email: 'helen.dawson@example.co.uk',
    password: 'ShropshireHills1968',
    phone: '07700900333',
    factor: 'sms',
  },
  anne: {
    customerId: 'C1000008',
    email: 'anne.porter@example.co.uk',
    password: 'OldForgeWem1957',
    phone: '07700900444',
    factor: 'sms',
  },
  joan: {
    customerId: 'C1000015',
    email: 'joan.whitfield@example.co.uk',
    password: 'PrioryWalkTewks50',
    phone: '07700900432',
    factor: 'sms',
  },
} as const satisfies Record<string, DemoCustomer>;

interface OutboxMessage {
  to: string;
  body: string;
  createdAt: string;
  kind: string;
}

const messageKey = (m: OutboxMessage) => `${m.createdAt}|${m.kind}|${m.body}`;

async function outbox(baseUrl: string, to: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/outbox/api?to=${encodeURIComponent(to)}&limit=20`);
  if (!response.ok) throw new Error(`the dev outbox answered ${response.status}`);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/**
 * Remembers what a phone has been sent so far; `next()` waits for the first message after that and
 * returns its code. Reading "new since" rather than "newest" keeps another client's code out of it.
 */
export async function watchPhone(baseUrl: string, phone: string) {
  const seen = new Set((await outbox(baseUrl, phone)).map(messageKey));
  return {
    async next(timeoutMs = 15_000): Promise<string> {
      const started = performance.now();
      while (performance.now() - started < timeoutMs) {
        // Newest first: the oldest new message answers the request made first.
        const message = (await outbox(baseUrl, phone)).filter((m) => !seen.has(messageKey(m))).at(-1);
        if (message) {
          seen.add(messageKey(message));
          return codeIn(message.body);
        }
        await sleep(20);
      }
      throw new Error(`no code was sent to ${phone}`);
    },
  };
}

async function postJson(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

interface Transaction {
  status?: string;
  stateToken?: string;
  sessionToken?: string;
  _embedded?: { factors?: { id: string; factorType: string }[] };
}

/** Password, then a code by the customer's factor: the one-time sessionToken. */
async function sessionToken(baseUrl: string, who: DemoCustomer): Promise<string> {
  const started = await postJson(`${baseUrl}/api/v1/authn`, { username: who.email, password: who.password });
  const tx = started.json as Transaction;
  if (started.status !== 200 || tx.status !== 'MFA_REQUIRED' || !tx.stateToken) {
    throw new Error(`sign-in of ${who.email} answered ${started.status} ${JSON.stringify(started.json)}`);
  }
  const factor = tx._embedded?.factors?.find((f) => f.factorType === who.factor);
  if (!factor) throw new Error(`${who.email} has no ${who.factor} factor`);
  const verify = `${baseUrl}/api/v1/authn/factors/${factor.id}/verify`;
  const phone = await watchPhone(baseUrl, who.phone);
  const challenge = await postJson(verify, { stateToken: tx.stateToken });
  if (challenge.status !== 200) {
    throw new Error(`no code sent to ${who.email}: ${challenge.status} ${JSON.stringify(challenge.json)}`);
  }
  const done = await postJson(verify, { stateToken: tx.stateToken, passCode: await phone.next() });
  const success = done.json as Transaction;
  if (done.status !== 200 || success.status !== 'SUCCESS' || !success.sessionToken) {
    throw new Error(`the code for ${who.email} answered ${done.status} ${JSON.stringify(done.json)}`);
  }
  return success.sessionToken;
}

/** A minimal cookie jar: name to value (the provider's cookies are all for the one host). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    store(lines: string[]) {
      for (const line of lines) {
        const pair = line.split(';')[0]!;
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        if (value === '' || /max-age=0\b|expires=[^;]*1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&(amp|lt|gt|quot);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e]!);

/** The action and fields of a page's self-submitting POST form, or undefined. */
function autoSubmitForm(html: string): { url: string; form: Record<string, string> } | undefined {
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

/** Follows the authorize request as a browser would until the redirect to `redirectUri`. */
async function authorize(start: URL, redirectUri: string): Promise<URL> {
  const jar = cookieJar();
  let request: { url: URL; form?: Record<string, string> } = { url: start };
  for (let hop = 0; hop < 12; hop += 1) {
    const response = await fetch(request.url, {
      method: request.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(request.form ? { body: new URLSearchParams(request.form).toString() } : {}),
    });
    jar.store(response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, request.url);
      if (next.href.startsWith(redirectUri)) return next;
      request = { url: next };
      continue;
    }
    const html = await response.text();
    const form = response.status === 200 ? autoSubmitForm(html) : undefined;
    if (!form) throw new Error(`authorize stopped at ${response.status}: ${html.slice(0, 300)}`);
    request = { url: new URL(form.url, request.url), form: form.form };
  }
  throw new Error('authorize: too many redirects');
}

/** The SPA's client (apps/server/src/modules/oidc/provider.ts, platform/page-init.ts). */
const clientId = 'portal-spa';

/** Signs the customer in over HTTP and returns an access token for the portal's APIs. */
export async function accessToken(baseUrl: string, who: DemoCustomer): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${baseUrl}/login/callback`;
  const state = randomBytes(8).toString('hex');
  const authorizeUrl = new URL(`${baseUrl}/oauth2/default/v1/authorize`);
  authorizeUrl.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid portal.customer',
    redirect_uri: redirectUri,
    state,
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: 'none',
    sessionToken: await sessionToken(baseUrl, who),
  }).toString();
  const callback = await authorize(authorizeUrl, redirectUri);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) {
    throw new Error(`authorize gave no code: ${callback.href}`);
  }
  const response = await fetch(`${baseUrl}/oauth2/default/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
    }).toString(),
  });
  const tokens = (await response.json().catch(() => ({}))) as { access_token?: string };
  if (!response.ok || !tokens.access_token) throw new Error(`token exchange answered ${response.status}`);
  return tokens.access_token;
}
