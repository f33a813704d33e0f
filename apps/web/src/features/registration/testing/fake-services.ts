import type { AuthnTransaction } from '@portal/contracts/identity';
import { vi } from 'vitest';
import { oktaErrorResponse } from '../../../session/testing/fake-identity-service';
import { settingsInput, TEST_ORIGIN, testPageInit } from '../../../test/content-fixtures';

/*
 * Stand-ins for the services the registration and password pages call, at the test page-init's URLs,
 * answering with the contracts' shapes, statuses and status texts: the registration service, the identity
 * provider's authn API, the content service's site settings (for the root route) and the event log.
 * Installed as the global fetch; every call is recorded.
 */

interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

type Answer = Response | (() => Response | Promise<Response>);

const json = (status: number, body: unknown, statusText = status < 300 ? 'OK' : 'Error') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });

const envelope = (code: string, message: string) => ({ code, message, correlationId: 'test-correlation' });

export function registrationStatus(status: 'OK' | 'OK_1' | 'OK_2' | 'NEED_MORE_DATA'): Response {
  return json(200, { status });
}
export const registrationError = () =>
  json(503, { ...envelope('UNAVAILABLE', 'Try later'), status: 'Error' }, 'Service Unavailable');
export const tooManyRequests = () =>
  json(429, envelope('TOO_MANY_REQUESTS', 'Slow down'), 'Too Many Requests');

/** An Okta error answer (the same builder as the identity service fake's). */
export const oktaError = oktaErrorResponse;

const link = (href: string) => ({ href, hints: { allow: ['POST'] } });
const inTenMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();
const user = {
  id: '00u-eleanor',
  passwordChanged: null,
  profile: {
    login: 'eleanor.hughes@example.co.uk',
    firstName: 'Eleanor',
    lastName: 'Hughes',
    locale: 'en_GB',
    timeZone: 'Europe/London',
  },
};

function passwordResetTx(
  stateToken: string,
  recoveryType: 'ACCOUNT_ACTIVATION' | 'PASSWORD',
): AuthnTransaction {
  return {
    status: 'PASSWORD_RESET',
    stateToken,
    expiresAt: inTenMinutes(),
    recoveryType,
    _embedded: {
      user,
      policy: {
        expiration: { passwordExpireDays: 0 },
        complexity: {
          minLength: 12,
          maxLength: 128,
          minLowerCase: 0,
          minUpperCase: 0,
          minNumber: 0,
          minSymbol: 0,
          excludeUsername: true,
          excludeWhitespace: true,
          dictionary: { common: { exclude: true } },
        },
        age: { minAgeMinutes: 0, historyCount: 0 },
      },
    },
    _links: {
      next: link(`${testPageInit.identity.orgUrl}/api/v1/authn/credentials/reset_password`),
      cancel: link(`${testPageInit.identity.orgUrl}/api/v1/authn/cancel`),
    },
  };
}

function mfaRequiredTx(stateToken: string): AuthnTransaction {
  return {
    status: 'MFA_REQUIRED',
    stateToken,
    expiresAt: inTenMinutes(),
    _embedded: {
      user,
      factors: [
        {
          id: 'sms-eleanor',
          factorType: 'sms',
          provider: 'OKTA',
          vendorName: 'OKTA',
          profile: { phoneNumber: '+44 XXXX XXX321' },
        },
      ],
    },
    _links: { cancel: link(`${testPageInit.identity.orgUrl}/api/v1/authn/cancel`) },
  };
}

export interface FakeServicesOptions {
  /** Answers to POST /Registration, in order (the last one repeats). */
  registration?: Answer[];
  resetPassword?: Answer;
  activation?: Answer;
  recovery?: Answer;
  setPassword?: Answer;
}

export function installFakeServices(options: FakeServicesOptions = {}) {
  const calls: RecordedCall[] = [];
  const registrationAnswers = [...(options.registration ?? [registrationStatus('OK')])];
  const answer = async (a: Answer) => (typeof a === 'function' ? a() : a.clone());

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== TEST_ORIGIN) throw new TypeError('Failed to fetch');
    const method = init?.method ?? 'GET';
    const body =
      typeof init?.body === 'string' && init.body !== '' ? (JSON.parse(init.body) as unknown) : undefined;
    const path = url.pathname;
    calls.push({ method, path, body });

    if (path === '/content-svc/api/v1/content/getbytype') return json(200, [settingsInput]);
    if (path === '/content-svc/api/v1/content/getnavigation') return json(200, { header: [], footer: [] });
    if (method === 'POST' && path === '/api/v1/audit') return json(202, { accepted: true });
    if (method === 'POST' && path === '/Registration') {
      const next = registrationAnswers.length > 1 ? registrationAnswers.shift()! : registrationAnswers[0]!;
      return answer(next);
    }
    if (method === 'POST' && path === '/Registration/resetPassword') {
      return answer(options.resetPassword ?? json(200, { status: 'OK' }));
    }
    if (method === 'POST' && path === '/identity/api/v1/authn') {
      return answer(
        options.activation ?? json(200, passwordResetTx('state-activation', 'ACCOUNT_ACTIVATION')),
      );
    }
    if (method === 'POST' && path === '/identity/api/v1/authn/recovery/token') {
      return answer(options.recovery ?? json(200, passwordResetTx('state-recovery', 'PASSWORD')));
    }
    if (method === 'POST' && path === '/identity/api/v1/authn/credentials/reset_password') {
      const stateToken = (body as { stateToken?: string } | undefined)?.stateToken ?? 'state';
      return answer(options.setPassword ?? json(200, mfaRequiredTx(stateToken)));
    }
    if (method === 'POST' && path === '/identity/api/v1/authn/cancel')
      return json(200, { status: 'UNAUTHENTICATED' });
    if (method === 'DELETE' && path === '/identity/api/v1/sessions/me')
      return new Response(null, { status: 204 });
    return json(404, envelope('NOT_FOUND', 'Not found'), 'Not Found');
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    calls,
    /** Calls to one path, in order. */
    to: (path: string) => calls.filter((c) => c.path === path),
    audits: () =>
      calls.filter((c) => c.path === '/api/v1/audit').map((c) => c.body as Record<string, unknown>),
  };
}

export { json };
