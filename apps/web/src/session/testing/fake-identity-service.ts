import { vi } from 'vitest';
import type { AuthnTransaction, FactorType, OktaError } from '@portal/contracts/identity';
import { testPageInit } from '../../test/content-fixtures';

/*
 * A stand-in for the identity provider's Okta-style authn API (and the event-logging service the pages
 * audit to) at the test page-init's URLs, installed as the global fetch. It answers with the contract's
 * shapes and status codes so the pages are exercised exactly as against the real server.
 */

const orgUrl = testPageInit.identity.orgUrl;
const origin = new URL(orgUrl).origin;

interface FakeFactor {
  id: string;
  type: FactorType;
  phoneNumber: string;
  landlineIsAMobile?: boolean;
}

export interface FakeUser {
  id: string;
  email: string;
  password: string;
  factors: FakeFactor[];
  /** A status a real Okta org may answer instead of MFA_REQUIRED (LOCKED_OUT, PASSWORD_EXPIRED). */
  statusOverride?: string;
}

interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

type Override = (call: RecordedCall) => Response | undefined;

const link = (href: string) => ({ href, hints: { allow: ['POST'] } });
const expiresAt = () => new Date(Date.now() + 5 * 60_000).toISOString();

function oktaUser(user: FakeUser) {
  return {
    id: user.id,
    passwordChanged: null,
    profile: {
      login: user.email,
      firstName: 'Test',
      lastName: 'Customer',
      locale: 'en_GB',
      timeZone: 'Europe/London',
    },
  };
}

function oktaFactor(f: FakeFactor) {
  return {
    id: f.id,
    factorType: f.type,
    provider: 'OKTA' as const,
    vendorName: 'OKTA' as const,
    profile: {
      phoneNumber: f.phoneNumber,
      ...(f.type === 'call' ? { landlineIsAMobile: f.landlineIsAMobile ?? false } : {}),
    },
  };
}

function mfaRequiredTx(user: FakeUser, stateToken: string): AuthnTransaction {
  return {
    status: 'MFA_REQUIRED',
    stateToken,
    expiresAt: expiresAt(),
    _embedded: { user: oktaUser(user), factors: user.factors.map(oktaFactor) },
    _links: { cancel: link(`${orgUrl}/api/v1/authn/cancel`) },
  };
}

function mfaChallengeTx(user: FakeUser, factor: FakeFactor, stateToken: string): AuthnTransaction {
  const verify = `${orgUrl}/api/v1/authn/factors/${factor.id}/verify`;
  return {
    status: 'MFA_CHALLENGE',
    stateToken,
    expiresAt: expiresAt(),
    factorResult: 'CHALLENGE',
    _embedded: { user: oktaUser(user), factor: oktaFactor(factor) },
    _links: {
      next: link(verify),
      prev: link(`${orgUrl}/api/v1/authn/previous`),
      cancel: link(`${orgUrl}/api/v1/authn/cancel`),
      resend: [{ ...link(`${verify}/resend`), name: factor.type }],
    },
  };
}

export function oktaErrorResponse(
  status: number,
  errorCode: string,
  errorSummary: string,
  causes: string[] = [],
): Response {
  const body: OktaError = {
    errorCode,
    errorSummary,
    errorLink: errorCode,
    errorId: 'test-error',
    errorCauses: causes.map((c) => ({ errorSummary: c })),
  };
  const statusText = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
  }[status];
  return new Response(JSON.stringify(body), {
    status,
    statusText: statusText ?? 'Error',
    headers: { 'Content-Type': 'application/json' },
  });
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const margaret: FakeUser = {
  id: '00u-margaret',
  email: 'margaret.thompson@example.co.uk',
  password: 'BluebellCottage1952',
  factors: [
    { id: 'sms-margaret', type: 'sms', phoneNumber: '+44 XXXX XXX123' },
    { id: 'call-margaret', type: 'call', phoneNumber: '+44 XXXX XXX789' },
  ],
};

export const david: FakeUser = {
  id: '00u-david',
  email: 'david.okafor@example.co.uk',
  password: 'HomeFarmHarvest61',
  factors: [{ id: 'call-david', type: 'call', phoneNumber: '+44 XXXX XXX456', landlineIsAMobile: false }],
};

const base64url = (value: string) => btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT-shaped access token carrying the claims the SPA reads (the SPA never verifies it). */
export function testAccessToken(claims: Record<string, unknown>, expiresInSeconds = 600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'at+jwt' }));
  const payload = base64url(JSON.stringify({ iat: now, exp: now + expiresInSeconds, ...claims }));
  return `${header}.${payload}.c2lnbmF0dXJl`;
}

export interface FakeIdentityService {
  calls: RecordedCall[];
  /** Audit events posted to the event-logging service. */
  audits: Array<Record<string, unknown>>;
  /** The code the last challenge sent. */
  lastCode(): string | undefined;
  /** Answers matching calls with this instead (return undefined to let the fake answer). */
  override(fn: Override): void;
  fetch: ReturnType<typeof vi.fn>;
}

function readBody(body: BodyInit | null | undefined): unknown {
  if (body instanceof URLSearchParams) return Object.fromEntries(body);
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

/** Installs the fake as the global fetch. */
export function installFakeIdentityService(users: FakeUser[] = [margaret, david]): FakeIdentityService {
  const calls: RecordedCall[] = [];
  const audits: Array<Record<string, unknown>> = [];
  const overrides: Override[] = [];
  const transactions = new Map<string, { user: FakeUser; factor?: FakeFactor; code?: string }>();
  let counter = 0;
  let lastCode: string | undefined;

  let tokenCount = 0;
  const customerId = 'C1000001';
  let statusTokens = 0;
  const tokenAnswer = (_call: RecordedCall): Response => {
    tokenCount += 1;
    const now = Math.floor(Date.now() / 1000);
    const idClaims = {
      iss: testPageInit.identity.issuer,
      aud: testPageInit.identity.clientId,
      sub: 'user-1',
      iat: now,
      exp: now + 600,
      customerId: customerId,
    };
    return json(200, {
      access_token: testAccessToken({ customerId, onBehalfOf: customerId, n: tokenCount }),
      id_token: testAccessToken(idClaims),
      token_type: 'Bearer',
      expires_in: 600,
      refresh_token: `refresh-${tokenCount}`,
      scope: 'openid portal.customer',
    });
  };

  const handle = (call: RecordedCall): Response => {
    for (const o of overrides) {
      const answer = o(call);
      if (answer) return answer;
    }
    const body = (call.body ?? {}) as Record<string, string | undefined>;
    const { method, path } = call;
    if (method === 'POST' && path === '/api/v1/audit') {
      audits.push(body);
      return json(202, { accepted: true });
    }
    if (method === 'POST' && path === `/account-svc/api/v1/customers/${customerId}/status-token`) {
      if (!call.headers.get('Authorization')?.startsWith('Bearer '))
        return json(401, { code: 'UNAUTHENTICATED', message: 'Sign in', correlationId: 'x' });
      statusTokens += 1;
      return json(200, {
        token: `status-${statusTokens}`,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
    }
    const identityPath = path.startsWith('/identity') ? path.slice('/identity'.length) : null;
    if (identityPath === null)
      return json(404, { code: 'NOT_FOUND', message: 'Not found', correlationId: 'x' });

    if (method === 'POST' && identityPath === '/api/v1/authn') {
      const user = users.find((u) => u.email === body['username']);
      if (!user || user.password !== body['password'])
        return oktaErrorResponse(401, 'E0000004', 'Authentication failed');
      if (user.statusOverride) return json(200, { status: user.statusOverride });
      counter += 1;
      const stateToken = `state-${counter}`;
      transactions.set(stateToken, { user });
      return json(200, mfaRequiredTx(user, stateToken));
    }
    const verify = /^\/api\/v1\/authn\/factors\/([^/]+)\/verify(\/resend)?$/.exec(identityPath);
    if (method === 'POST' && verify) {
      const tx = transactions.get(body['stateToken'] ?? '');
      if (!tx) return oktaErrorResponse(401, 'E0000011', 'Invalid token provided');
      const factor = tx.user.factors.find((f) => f.id === verify[1]);
      if (!factor) return oktaErrorResponse(404, 'E0000007', 'Not found');
      const passCode = body['passCode'];
      if (passCode === undefined || verify[2]) {
        const length = factor.type === 'sms' || factor.landlineIsAMobile ? 6 : 5;
        counter += 1;
        tx.code = String(100000 + counter * 7919).slice(0, length);
        tx.factor = factor;
        lastCode = tx.code;
        return json(200, mfaChallengeTx(tx.user, factor, body['stateToken']!));
      }
      if (passCode !== tx.code)
        return oktaErrorResponse(403, 'E0000068', 'Invalid Passcode/Answer', ['That code is not right.']);
      transactions.delete(body['stateToken']!);
      return json(200, {
        status: 'SUCCESS',
        sessionToken: `session-${tx.user.id}`,
        expiresAt: expiresAt(),
        _embedded: { user: oktaUser(tx.user) },
      });
    }
    if (method === 'POST' && identityPath === '/api/v1/authn/previous') {
      const tx = transactions.get(body['stateToken'] ?? '');
      if (!tx) return oktaErrorResponse(401, 'E0000011', 'Invalid token provided');
      return json(200, mfaRequiredTx(tx.user, body['stateToken']!));
    }
    if (method === 'POST' && identityPath === '/api/v1/authn/cancel') {
      transactions.delete(body['stateToken'] ?? '');
      return json(200, { status: 'UNAUTHENTICATED' });
    }
    if (method === 'DELETE' && identityPath === '/api/v1/sessions/me')
      return new Response(null, { status: 204 });
    if (method === 'GET' && identityPath === '/oauth2/default/.well-known/openid-configuration') {
      const issuer = testPageInit.identity.issuer;
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/v1/authorize`,
        token_endpoint: `${issuer}/v1/token`,
        jwks_uri: `${issuer}/v1/keys`,
        end_session_endpoint: `${issuer}/v1/logout`,
        revocation_endpoint: `${issuer}/v1/revoke`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (method === 'POST' && identityPath === '/oauth2/default/v1/token') return tokenAnswer(call);
    if (method === 'POST' && identityPath === '/oauth2/default/v1/revoke')
      return new Response(null, { status: 200 });
    return json(404, { code: 'NOT_FOUND', message: 'Not found', correlationId: 'x' });
  };

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== origin) throw new TypeError('Failed to fetch');
    const call: RecordedCall = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: readBody(init?.body),
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    return handle(call);
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    calls,
    audits,
    lastCode: () => lastCode,
    override: (fn) => overrides.push(fn),
    fetch: fetchMock,
  };
}
