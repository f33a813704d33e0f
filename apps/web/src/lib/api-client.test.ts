import type { CallDefinition } from '@portal/contracts/call';
import { getContentByRelativeUrlCall } from '@portal/contracts/content';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { testPageInit } from '../test/content-fixtures';
import {
  ApiError,
  callApi,
  GENERIC_FETCH_ERROR,
  NetworkError,
  ResponseShapeError,
  setAccessTokenProvider,
  setSessionEndedHandler,
} from './api-client';
import { registerNavigator } from './app-navigation';
import { getPageInit, loadPageInit, PageInitError, setPageInit } from './page-init';

// Identity function for inference: these test calls are not registered with the contracts' registry.
const call = <
  P extends z.ZodMiniType,
  Q extends z.ZodMiniType,
  B extends z.ZodMiniType,
  R extends Record<number, z.ZodMiniType>,
>(
  definition: CallDefinition<P, Q, B, R>,
) => definition;

const statusTokenCall = call({
  id: 'test.statusToken',
  summary: 'test',
  service: 'account',
  method: 'POST',
  path: '/api/v1/customers/:customerId/status-token',
  auth: true,
  params: z.object({ customerId: z.string() }),
  body: z.object({ reason: z.string() }),
  responses: {
    200: z.object({ token: z.string(), expiresIn: z._default(z.number(), 300) }),
    400: z.object({ code: z.string() }),
  },
});

const publicCall = call({
  id: 'test.public',
  summary: 'test',
  service: 'content',
  method: 'GET',
  path: '/api/v1/things',
  auth: false,
  query: z.object({ page: z.number(), tag: z.optional(z.array(z.string())), skip: z.optional(z.string()) }),
  responses: { 200: z.array(z.string()) },
});

type Handler = (request: Request) => Response | Promise<Response>;

function serve(handler: Handler) {
  const requests: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return requests;
}

const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200, statusText: 'OK' });

let navigate: ReturnType<typeof vi.fn<(to: string, options?: { replace?: boolean }) => void>>;
let unregister: () => void;
let path = '/account/policies?id=123X4567890';

beforeEach(() => {
  setPageInit(testPageInit);
  navigate = vi.fn();
  unregister = registerNavigator({ navigate, currentPath: () => path });
});

afterEach(() => {
  unregister();
  setAccessTokenProvider(undefined);
  setSessionEndedHandler(undefined);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('callApi requests', () => {
  it("builds the URL from the service's base URL, path parameters and query", async () => {
    const requests = serve(() => ok(['a']));
    await callApi(publicCall, { query: { page: 2, tag: ['home', 'motor'], skip: undefined } });
    expect(requests[0]!.url).toBe('http://portal.test/content-svc/api/v1/things?page=2&tag=home&tag=motor');
    expect(requests[0]!.method).toBe('GET');
  });

  it('sends a fresh correlation id with every call and the same session id, kept in session storage', async () => {
    const requests = serve(() => ok(['a']));
    await callApi(publicCall, { query: { page: 1 } });
    await callApi(publicCall, { query: { page: 1 } });
    const [first, second] = requests.map((r) => r.headers);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(first!.get('X-CorrelationId')).toMatch(uuid);
    expect(second!.get('X-CorrelationId')).toMatch(uuid);
    expect(first!.get('X-CorrelationId')).not.toBe(second!.get('X-CorrelationId'));
    expect(first!.get('X-SessionId')).toMatch(uuid);
    expect(second!.get('X-SessionId')).toBe(first!.get('X-SessionId'));
    expect(sessionStorage.getItem('sessionId')).toBe(first!.get('X-SessionId'));
  });

  it('reuses a session id already in session storage', async () => {
    sessionStorage.setItem('sessionId', '7d9f3c4e-2b1a-4c5d-8e6f-0a1b2c3d4e5f');
    const requests = serve(() => ok(['a']));
    await callApi(publicCall, { query: { page: 1 } });
    expect(requests[0]!.headers.get('X-SessionId')).toBe('7d9f3c4e-2b1a-4c5d-8e6f-0a1b2c3d4e5f');
  });

  it('sends JSON with its content type, and the bearer token on calls that need one', async () => {
    setAccessTokenProvider(async () => 'token-abc');
    const requests = serve(() => ok({ token: 't' }));
    await callApi(statusTokenCall, { params: { customerId: 'C 1/2' }, body: { reason: 'renewal' } });
    const request = requests[0]!;
    expect(request.url).toBe('http://portal.test/account-svc/api/v1/customers/C%201%2F2/status-token');
    expect(request.method).toBe('POST');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Authorization')).toBe('Bearer token-abc');
    expect(await request.json()).toEqual({ reason: 'renewal' });
  });

  it('never sends the token to calls that do not need it, and sends no body or content type without one', async () => {
    setAccessTokenProvider(() => 'token-abc');
    const requests = serve(() => ok(['a']));
    await callApi(publicCall, { query: { page: 1 } });
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(requests[0]!.headers.get('Content-Type')).toBeNull();
  });

  it('sends no Authorization header when signed out', async () => {
    setAccessTokenProvider(() => undefined);
    const requests = serve(() => ok({ token: 't' }));
    await callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } });
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
  });
});

describe("the staff console's calls (issue 41)", () => {
  const staffWrite = call({
    id: 'test.staffWrite',
    summary: 'test',
    service: 'staff',
    method: 'POST',
    path: '/staff/api/things/:id',
    auth: false,
    staffRoles: ['agent'],
    params: z.object({ id: z.string() }),
    body: z.object({ reason: z.string() }),
    responses: { 200: z.object({ done: z.boolean() }) },
  });

  it("go to the page's own origin without page init, with the call's own headers and the session cookie", async () => {
    setPageInit(undefined);
    const requests = serve(() => ok({ done: true }));
    await expect(
      callApi(staffWrite, {
        params: { id: 'a1' },
        body: { reason: 'CALL-1' },
        headers: { 'X-CSRF-Token': 'token-1' },
      }),
    ).resolves.toEqual({ done: true });
    expect(requests[0]!.url).toBe(`${window.location.origin}/staff/api/things/a1`);
    expect(requests[0]!.headers.get('X-CSRF-Token')).toBe('token-1');
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(requests[0]!.credentials).toBe('same-origin');
  });

  it("never let a call's own headers replace the transport's", async () => {
    const requests = serve(() => ok({ done: true }));
    await callApi(staffWrite, {
      params: { id: 'a1' },
      body: { reason: 'CALL-1' },
      headers: { 'X-CorrelationId': 'mine', Accept: 'text/plain' },
    });
    expect(requests[0]!.headers.get('X-CorrelationId')).not.toBe('mine');
    expect(requests[0]!.headers.get('Accept')).toBe('application/json');
  });
});

describe('callApi when the bearer token is refused', () => {
  const refused = () => new Response('{}', { status: 401, statusText: 'Unauthorized' });

  it('tells the session layer once, and still rejects with the ApiError, when a token it sent is refused', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setAccessTokenProvider(() => 'token-abc');
    serve(refused);
    await expect(
      callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } }),
    ).rejects.toMatchObject({ status: 401 });
    expect(ended).toHaveBeenCalledTimes(1);
    expect(ended).toHaveBeenCalledWith('expired');
  });

  it('says the sign-in was ended elsewhere when the refusal says so (issue 38)', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setAccessTokenProvider(() => 'token-abc');
    serve(
      () =>
        new Response('{}', {
          status: 401,
          headers: {
            'WWW-Authenticate':
              'Bearer realm="portal", error="invalid_token", error_description="The sign-in session has ended"',
          },
        }),
    );
    await expect(
      callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } }),
    ).rejects.toMatchObject({ status: 401 });
    expect(ended).toHaveBeenCalledWith('ended');
  });

  it('does not when no token was sent (signed out, or a call without one)', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setAccessTokenProvider(() => undefined);
    serve(refused);
    await expect(
      callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } }),
    ).rejects.toMatchObject({ status: 401 });
    setAccessTokenProvider(() => 'token-abc');
    await expect(callApi(publicCall, { query: { page: 1 } })).rejects.toMatchObject({ status: 401 });
    expect(ended).not.toHaveBeenCalled();
  });
});

describe('callApi while the page is starting', () => {
  it('waits for page init when it is still loading, then calls the service it names', async () => {
    setPageInit(undefined);
    const requests = serve(() => ok(['a']));
    const meta = document.createElement('meta');
    meta.setAttribute('name', 'portal-settings');
    meta.setAttribute('content', JSON.stringify(testPageInit));
    document.head.appendChild(meta);
    try {
      // A page the server rendered is working before page init has loaded (main.tsx starts the load,
      // then takes the page over): a call made meanwhile waits for it.
      const loading = loadPageInit();
      const call = callApi(publicCall);
      expect(() => getPageInit()).toThrow(PageInitError);
      await expect(call).resolves.toEqual(['a']);
      await loading;
      expect(requests[0]!.url).toBe('http://portal.test/content-svc/api/v1/things');
    } finally {
      meta.remove();
    }
  });

  it('fails as a network failure, sending nothing, when page init was never loaded', async () => {
    setPageInit(undefined);
    const requests = serve(() => ok(['a']));
    await expect(callApi(publicCall)).rejects.toBeInstanceOf(NetworkError);
    expect(requests).toHaveLength(0);
  });
});

describe('callApi answers', () => {
  it('returns the body parsed with the contract (defaults applied)', async () => {
    serve(() => ok({ token: 'status-token' }));
    const result = await callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } });
    expect(result).toEqual({ token: 'status-token', expiresIn: 300 });
  });

  it('rejects a non-ok answer with a typed error carrying the status text, and never navigates', async () => {
    serve(() => new Response(JSON.stringify({ code: 'BAD' }), { status: 400, statusText: 'Bad Request' }));
    const failure = callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await failure.catch((error: ApiError) => {
      expect(error.message).toBe('Bad Request');
      expect(error.status).toBe(400);
      expect(error.statusText).toBe('Bad Request');
      expect(error.body).toEqual({ code: 'BAD' });
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('uses the generic message when a non-ok answer has no status text', async () => {
    serve(() => new Response('', { status: 502, statusText: '' }));
    await expect(callApi(publicCall, { query: { page: 1 } })).rejects.toThrow(GENERIC_FETCH_ERROR);
    expect(GENERIC_FETCH_ERROR).toBe('An fetching error has occurred');
  });

  it('leaves a failed call to its caller: a screen catches the typed error and shows its own message', async () => {
    serve(() => new Response('{}', { status: 503, statusText: 'Service Unavailable' }));
    const shown = await callApi(publicCall, { query: { page: 1 } }).catch((error: unknown) =>
      error instanceof ApiError && error.status === 503 ? 'the screen message' : 'other',
    );
    expect(shown).toBe('the screen message');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('stores the current path when a content call fails, and only then', async () => {
    serve(() => new Response('{}', { status: 500, statusText: 'Internal Server Error' }));
    await callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } }).catch(
      () => undefined,
    );
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
    await callApi(getContentByRelativeUrlCall, { query: { relativeUrl: '/x' } }).catch(() => undefined);
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/account/policies?id=123X4567890');
  });

  it('does not store the error page itself as the place to return to', async () => {
    path = '/error';
    serve(() => new Response('{}', { status: 500, statusText: 'Internal Server Error' }));
    await callApi(getContentByRelativeUrlCall, { query: { relativeUrl: '/error' } }).catch(() => undefined);
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
    path = '/account/policies?id=123X4567890';
  });

  it('does not store an address that has no page (a mistyped link) as the place to return to', async () => {
    path = '/acount/dashbord';
    serve(() => new Response('{}', { status: 404, statusText: 'Not Found' }));
    await callApi(getContentByRelativeUrlCall, { query: { relativeUrl: '/acount/dashbord' } }).catch(
      () => undefined,
    );
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
    path = '/account/policies?id=123X4567890';
  });

  it("rejects a network failure with the browser's message, without navigating", async () => {
    serve(() => {
      throw new TypeError('Failed to fetch');
    });
    const failure = callApi(publicCall, { query: { page: 1 } });
    await expect(failure).rejects.toBeInstanceOf(NetworkError);
    await expect(failure).rejects.toThrow('Failed to fetch');
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/account/policies?id=123X4567890');
  });

  it('uses the generic message for a network failure without one', async () => {
    serve(() => {
      throw new TypeError('');
    });
    await expect(callApi(publicCall, { query: { page: 1 } })).rejects.toThrow(GENERIC_FETCH_ERROR);
  });

  it('only warns about an aborted request: no error page, nothing remembered', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    serve((request) => {
      expect(request.signal.aborted).toBe(true);
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    const controller = new AbortController();
    controller.abort();
    await expect(
      callApi(publicCall, { query: { page: 1 }, signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(warn).toHaveBeenCalledWith('Request test.public was cancelled');
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('redirectAfterLogin')).toBeNull();
  });

  it('treats an answer that breaks the contract as a failure', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(() => ok({ token: 42 }));
    const failure = callApi(statusTokenCall, { params: { customerId: 'C1' }, body: { reason: 'x' } });
    await expect(failure).rejects.toBeInstanceOf(ResponseShapeError);
    await expect(failure).rejects.toThrow(GENERIC_FETCH_ERROR);
    expect(navigate).not.toHaveBeenCalled();
    // The log names where the answer went wrong, never the values (they may be personal data).
    expect(error.mock.calls[0]![0]).toContain('token');
    expect(error.mock.calls[0]![0]).not.toContain('42');
  });

  it('treats a success status the contract does not define as a failure', async () => {
    serve(() => new Response(null, { status: 204, statusText: 'No Content' }));
    await expect(callApi(publicCall, { query: { page: 1 } })).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('parses a JSON error body with the schema for its status', async () => {
    serve(() => new Response('not json', { status: 400, statusText: 'Bad Request' }));
    const error = await callApi(statusTokenCall, {
      params: { customerId: 'C1' },
      body: { reason: 'x' },
    }).catch((e: ApiError) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toBe('not json');
  });
});
