import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { PrecompressedBody } from './precompressed';

describe('PrecompressedBody', () => {
  let app: FastifyInstance;
  const big = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, text: 'cover' })) });
  beforeAll(async () => {
    app = Fastify();
    const body = new PrecompressedBody(big);
    const small = new PrecompressedBody('{"ok":true}');
    app.get('/big', (request, reply) =>
      body.send(request, reply.header('Vary', 'Origin'), 'application/json'),
    );
    app.get('/small', (request, reply) => small.send(request, reply, 'application/json'));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends brotli when accepted, gzip otherwise, and the same text either way', async () => {
    const br = await get('/big', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(big.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(big);

    const gzip = await get('/big', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(big);
    expect((await get('/big', 'x-gzip')).headers['content-encoding']).toBe('gzip');
  });

  it('sends plain text to a client that accepts no encoding we have, and keeps other Vary values', async () => {
    for (const accept of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get('/big', accept);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(res.body).toBe(big);
      expect(res.headers['vary']).toBe('Origin, Accept-Encoding');
    }
  });

  it('does not compress a small body', async () => {
    const res = await get('/small', 'br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ ok: true });
  });
});

describe('content and the SPA page go out precompressed', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers site settings in brotli, identical to the plain answer, with one ETag', async () => {
    const url = '/api/v1/content/getbytype?type=SiteSettings';
    const plain = await t.app.inject({ method: 'GET', url });
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers['etag']).toBe(plain.headers['etag']);
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
  });
});
