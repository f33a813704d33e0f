import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../lib/api-client';
import { setAuthenticated } from '../session-store';
import { setPageInit } from '../../lib/page-init';
import { testPageInit } from '../../test/content-fixtures';
import { correspondencePreferenceOf, marketingChannelsOf } from './audit-fields';
import { AUDIT_FAILURE, auditEventBody, auditFailureReasonOf, logAuditEvent } from './log-audit-event';
import { ApiError, NetworkError } from '../../lib/api-client';

interface Sent {
  url: string;
  body: Record<string, unknown>;
  headers: Headers;
}

function installEventlog(answer: () => Response | Promise<Response>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({
        url: String(input),
        body: JSON.parse(String(init?.body)) as Record<string, unknown>,
        headers: new Headers(init?.headers),
      });
      return answer();
    }),
  );
  return sent;
}

const accepted = () =>
  new Response(JSON.stringify({ accepted: true }), {
    status: 202,
    headers: { 'Content-Type': 'application/json' },
  });

describe('logAuditEvent', () => {
  beforeEach(() => setPageInit(testPageInit));
  afterEach(() => {
    vi.unstubAllGlobals();
    setAccessTokenProvider(undefined);
    setPageInit(undefined);
  });

  it('posts the event to the event-logging service with the tab session id, unauthenticated before sign-in', async () => {
    const sent = installEventlog(accepted);
    await logAuditEvent({
      eventId: 'Registration',
      isSuccess: true,
      customerId: 'C1000001',
      onBehalfOf: 'C1000001',
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`${testPageInit.eventLoggingBaseUrl}/api/v1/audit`);
    const sessionId = sessionStorage.getItem('sessionId');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // The service refuses customer ids without a bearer token, so they are not sent.
    expect(sent[0]!.body).toEqual({
      eventId: 'Registration',
      isSuccess: true,
      sessionId,
      authenticationStatus: 'Unauthenticated',
    });
    expect(sent[0]!.headers.get('Authorization')).toBeNull();
    expect(sent[0]!.headers.get('X-SessionId')).toBe(sessionId);
  });

  it('sends the bearer token and the customer ids once signed in', async () => {
    setAuthenticated(true);
    setAccessTokenProvider(() => 'access-token-1');
    const sent = installEventlog(accepted);
    await logAuditEvent({
      eventId: 'MarketingPreferencesUpdate',
      customerId: 'C1000001',
      marketingChannels: 'email,online',
      marketingConsent: true,
      correspondencePreference: 'paperless',
    });
    expect(sent[0]!.headers.get('Authorization')).toBe('Bearer access-token-1');
    expect(sent[0]!.body).toMatchObject({
      authenticationStatus: 'Authenticated',
      customerId: 'C1000001',
      marketingChannels: 'email,online',
      marketingConsent: true,
      correspondencePreference: 'paperless',
    });
  });

  it('swallows failures: a refused or unanswered call resolves without navigating anywhere', async () => {
    const before = window.location.href;
    installEventlog(() => new Response('{}', { status: 500, statusText: 'Internal Server Error' }));
    await expect(logAuditEvent({ eventId: 'Registration', isSuccess: false })).resolves.toBeUndefined();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(logAuditEvent({ eventId: 'Registration', isSuccess: false })).resolves.toBeUndefined();
    expect(window.location.href).toBe(before);
  });

  it('maps failures to the spec texts', () => {
    expect(auditFailureReasonOf(new NetworkError('x', 'offline'))).toBe('Network communication problem');
    expect(
      auditFailureReasonOf(new ApiError('x', 401, 'Unauthorized', {}, 'c'), { authorisedCall: true }),
    ).toBe('Token expired');
    expect(auditFailureReasonOf(new ApiError('x', 401, 'Unauthorized', {}, 'c'))).toBe(
      'Authentication failure',
    );
    expect(AUDIT_FAILURE).toEqual({
      network: 'Network communication problem',
      authentication: 'Authentication failure',
      tokenExpired: 'Token expired',
    });
  });

  it('leaves out fields that are not set and keeps an explicit status', () => {
    expect(
      auditEventBody(
        { eventId: 'Login', stateToken: undefined, authenticationStatus: 'Unauthenticated' },
        's-1',
        true,
      ),
    ).toEqual({ eventId: 'Login', sessionId: 's-1', authenticationStatus: 'Unauthenticated' });
  });
});

describe('audit fields', () => {
  it('lists marketing channels in the spec order', () => {
    expect(marketingChannelsOf({ post: true, email: true, online: false, phone: null })).toBe('email,post');
    expect(marketingChannelsOf({ online: true, phone: true, email: true, post: true })).toBe(
      'email,online,phone,post',
    );
    expect(marketingChannelsOf({})).toBe('');
  });
  it('names the correspondence preference', () => {
    expect(correspondencePreferenceOf(true)).toBe('paperless');
    expect(correspondencePreferenceOf(false)).toBe('paper');
  });
});
