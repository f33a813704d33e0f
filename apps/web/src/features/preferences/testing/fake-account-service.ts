import type { UserPreferences } from '@portal/contracts/account';
import { vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api-client';
import { setAuthenticated, setSessionData } from '../../../session/session-store';
import type { SessionData } from '../../../session/session-machine';
import { testAccessToken } from '../../../session/testing/fake-identity-service';
import { getAccessToken, resetTokenClient, storeTokens } from '../../../session/tokens';
import { TEST_ORIGIN, testPageInit } from '../../../test/content-fixtures';

/*
 * A stand-in for the account service's preferences calls (and the registration service's completion and
 * the event log), at the test page-init's URLs, checking the bearer token as the real service does:
 * another customer's path is 404. Installed as the global fetch; every call is recorded.
 */

export const CUSTOMER_ID = 'C1000002';

interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

const json = (status: number, body: unknown, statusText = status < 300 ? 'OK' : 'Error') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });
const envelope = (code: string, message: string) => ({ code, message, correlationId: 'test-correlation' });

export function preferences(
  overrides: Partial<UserPreferences['marketingPreferences']> = {},
): UserPreferences {
  return {
    email: 'david.okafor@example.co.uk',
    marketingPreferences: { email: null, phone: null, post: null, online: null, ...overrides },
    correspondencePreferences: { paperless: false, addressLines: ['Home Farm', 'Much Marcle', 'HR8 2NG'] },
    registrationJourney: overrides.online === undefined || overrides.online === null,
  };
}

export interface FakeAccountOptions {
  stored?: UserPreferences;
  /** 'fail' answers the preferences GET with a 500. */
  load?: 'fail';
  /** 'fail' answers the PATCH with a 500. */
  save?: 'fail';
}

export function installFakeAccountService(options: FakeAccountOptions = {}) {
  const calls: RecordedCall[] = [];
  let stored = options.stored ?? preferences();
  const base = new URL(testPageInit.accountBaseUrl).pathname;

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== TEST_ORIGIN) throw new TypeError('Failed to fetch');
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const body =
      typeof init?.body === 'string' && init.body !== '' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body, authorization: headers.get('Authorization') });

    if (method === 'POST' && url.pathname === '/api/v1/audit') return json(202, { accepted: true });
    if (method === 'POST' && url.pathname === '/api/v1/registration/complete')
      return json(200, { status: 'COMPLETED' });

    const match = new RegExp(`^${base}/api/v1/Preferences/([^/]+)(/user)?$`).exec(url.pathname);
    if (!match) return json(404, envelope('NOT_FOUND', 'Not found'), 'Not Found');
    if (!headers.get('Authorization')?.startsWith('Bearer '))
      return json(401, envelope('UNAUTHORIZED', 'No token'), 'Unauthorized');
    if (match[1] !== CUSTOMER_ID) return json(404, envelope('NOT_FOUND', 'Not found'), 'Not Found');
    if (method === 'GET' && match[2]) {
      if (options.load === 'fail') return json(500, envelope('INTERNAL', 'Broken'), 'Internal Server Error');
      return json(200, stored);
    }
    if (method === 'PATCH' && !match[2]) {
      if (options.save === 'fail') return json(500, envelope('INTERNAL', 'Broken'), 'Internal Server Error');
      const change = body as {
        marketingPreferences?: Partial<UserPreferences['marketingPreferences']>;
        correspondencePreferences?: { paperless: boolean; addressLines?: string[] };
      };
      stored = {
        ...stored,
        marketingPreferences: { ...stored.marketingPreferences, ...change.marketingPreferences },
        correspondencePreferences: {
          paperless:
            change.correspondencePreferences?.paperless ?? stored.correspondencePreferences.paperless,
          addressLines:
            change.correspondencePreferences?.addressLines ?? stored.correspondencePreferences.addressLines,
        },
      };
      return json(200, {
        marketingPreferences: stored.marketingPreferences,
        correspondencePreferences: stored.correspondencePreferences,
      });
    }
    return json(405, envelope('METHOD_NOT_ALLOWED', 'No'), 'Method Not Allowed');
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    to: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
    audits: () =>
      calls.filter((c) => c.path === '/api/v1/audit').map((c) => c.body as Record<string, unknown>),
  };
}

/** A signed-in customer as after /login/callback: stored tokens, the flag '1' and the session status. */
export async function signInAs(customerId: string, status: SessionData['status'] = 'marketingPreferences') {
  resetTokenClient();
  const now = Math.floor(Date.now() / 1000);
  storeTokens({
    access_token: testAccessToken({ customerId, onBehalfOf: customerId }),
    token_type: 'Bearer',
    scope: 'openid portal.customer',
    profile: {
      sub: '00u-david',
      iss: testPageInit.identity.issuer,
      aud: 'portal-spa',
      exp: now + 600,
      iat: now,
    },
    expires_at: now + 600,
  });
  setAccessTokenProvider(getAccessToken);
  setAuthenticated(true);
  setSessionData({ status });
}

export function signOutForTests() {
  resetTokenClient();
  setAccessTokenProvider(undefined);
}
