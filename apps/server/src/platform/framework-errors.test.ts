/**
 * Refusals made by the framework or by Node before any route runs: a URL that does not decode, a URL or
 * parameter too long, headers too large, a wrong media type, a body too large or not JSON. Each answers
 * with the right status in the envelope of the service asked (Okta's on the authn API, the project's
 * elsewhere), with a correlation id, and without echoing what was sent.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';

interface Answer {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('framework refusals', () => {
  let t: TestContext;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** A real HTTP request, so Node's own parser limits apply. */
  const over = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            statusCode: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            headers: res.headers,
            body,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  const project = (res: Answer | LightMyRequestResponse, status: number, code: string, sent: string) => {
    expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body).toEqual({ code, message: expect.any(String), correlationId: expect.any(String) });
    expect(res.headers['x-correlationid']).toBe(body['correlationId']);
    expect(res.body).not.toContain(sent);
  };

  const okta = (res: Answer | LightMyRequestResponse, status: number, errorCode: string, sent: string) => {
    expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body).toEqual({
      errorCode,
      errorSummary: expect.any(String),
      errorLink: errorCode,
      errorId: expect.any(String),
      errorCauses: [],
    });
    expect(res.headers['x-correlationid']).toBe(body['errorId']);
    expect(res.body).not.toContain(sent);
  };

  it('answers a URL that does not decode with 400 in the envelope, without echoing it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/content/%E0%A4%A' });
    project(res, 400, 'BAD_REQUEST', '%E0%A4%A');
    const sent = await t.app.inject({
      method: 'GET',
      url: '/api/v1/content/%E0%A4%A',
      headers: { 'x-correlationid': 'caller-123' },
    });
    expect(sent.json()).toMatchObject({ correlationId: 'caller-123' });
    okta(
      await t.app.inject({ method: 'POST', url: '/api/v1/authn/factors/%E0%A4%A/verify', payload: {} }),
      400,
      'E0000001',
      '%E0%A4%A',
    );
  });

  it('answers a path parameter over the router limit in the envelope, without echoing it', async () => {
    // No route takes it; the SPA's catch-all then answers an API path with the 404 envelope.
    const long = 'p'.repeat(600);
    project(await t.app.inject({ method: 'GET', url: `/api/v1/policy/${long}` }), 404, 'NOT_FOUND', long);
  });

  it('answers a URL longer than Node accepts with 414 URI Too Long in the envelope', async () => {
    const long = `/api/v1/content/getByRelativeUrl?relativeUrl=${'u'.repeat(20_000)}`;
    const res = await over(long);
    expect(res.statusMessage).toBe('URI Too Long');
    project(res, 414, 'URI_TOO_LONG', 'uuuuuuuu');
    okta(await over(`/api/v1/authn?x=${'u'.repeat(20_000)}`), 414, 'E0000003', 'uuuuuuuu');
  });

  it('answers headers larger than Node accepts with 431 in the envelope', async () => {
    const res = await over('/api/v1/content/getByRelativeUrl', { 'x-big': 'h'.repeat(20_000) });
    project(res, 431, 'HEADERS_TOO_LARGE', 'hhhhhhhh');
  });

  it("answers wrong media type, too large and malformed bodies on the authn API in Okta's envelope", async () => {
    const post = (payload: string, type = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/authn',
        headers: { 'content-type': type },
        payload,
      });
    okta(await post('{"username": "secret-value', 'application/json'), 400, 'E0000003', 'secret-value');
    okta(await post('<username>secret-value</username>', 'application/xml'), 415, 'E0000003', 'secret-value');
    okta(
      await post(JSON.stringify({ username: 'secret-value'.repeat(10_000) })),
      413,
      'E0000003',
      'secret-value',
    );
  });

  it('answers the same refusals elsewhere in the project envelope', async () => {
    const post = (payload: string, type = 'application/json') =>
      t.app.inject({ method: 'POST', url: '/api/v1/audit', headers: { 'content-type': type }, payload });
    project(await post('{"eventId": "secret-value'), 400, 'BAD_REQUEST', 'secret-value');
    project(
      await post('<eventId>secret-value</eventId>', 'application/xml'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'secret-value',
    );
    project(
      await post(JSON.stringify({ eventId: 'secret-value'.repeat(10_000) })),
      413,
      'PAYLOAD_TOO_LARGE',
      'secret-value',
    );
  });
});
