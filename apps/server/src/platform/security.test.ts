import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestDb } from '../../test/helpers';
import { ManualClock } from './clock';
import type { Db } from './db';

/** The real app plus one large JSON route, as a service module would answer. */
async function appWithLargeResponse(env: Record<string, string> = {}) {
  const db = await createTestDb();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, db, clock: new ManualClock(), logger: false });
  const items = Array.from({ length: 200 }, (_, i) => ({
    policyNumber: `102X${String(i).padStart(7, '0')}`,
    status: 'Active',
  }));
  app.get('/api/v1/test-large', async () => ({ items }));
  await app.ready();
  return { app, db };
}

describe('security headers and compression', () => {
  let app: FastifyInstance;
  let db: Db;
  beforeAll(async () => {
    ({ app, db } = await appWithLargeResponse());
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('sends the security headers on every kind of response', async () => {
    for (const url of ['/healthz', '/api/v1/test-large', '/api/v1/does-not-exist']) {
      const res = await app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toContain('unsafe-inline');
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });

  it('keeps answers out of shared caches unless a route chose its caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/test-large' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('compresses a large JSON answer with brotli or gzip, as the client accepts', async () => {
    const plain = await app.inject({ method: 'GET', url: '/api/v1/test-large' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const size = plain.rawPayload.length;
    expect(size).toBeGreaterThan(5000);

    const br = await app.inject({
      method: 'GET',
      url: '/api/v1/test-large',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(size / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await app.inject({
      method: 'GET',
      url: '/api/v1/test-large',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends no HSTS over plain http', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('a portal behind https with a service on another host', () => {
  let app: FastifyInstance;
  let db: Db;
  beforeAll(async () => {
    ({ app, db } = await appWithLargeResponse({
      PUBLIC_URL: 'https://portal.example.co.uk',
      CONTENT_BASE_URL: 'https://content.example.co.uk',
    }));
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('sends HSTS and lets the page connect to the other host', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/portal\.example\.co\.uk https:\/\/content\.example\.co\.uk/,
    );
  });

  it("answers CORS for the portal's own origins only", async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/test-large',
      headers: {
        origin: 'https://portal.example.co.uk',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, x-correlationid',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://portal.example.co.uk');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('X-CorrelationId');

    const call = await app.inject({
      method: 'GET',
      url: '/api/v1/test-large',
      headers: { origin: 'https://portal.example.co.uk' },
    });
    expect(call.headers['access-control-allow-origin']).toBe('https://portal.example.co.uk');
    expect(String(call.headers['access-control-expose-headers'])).toContain('X-CorrelationId');

    const stranger = await app.inject({
      method: 'GET',
      url: '/api/v1/test-large',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    const strangerPreflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/test-large',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    expect(strangerPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
