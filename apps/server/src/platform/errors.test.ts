import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestDb } from '../../test/helpers';
import { ManualClock } from './clock';
import type { Db } from './db';
import { HttpError, tooManyRequests } from './errors';
import { parseInput } from './validate';

/** The real app with a few routes that behave as service routes do. */
describe('the error envelope', () => {
  let app: FastifyInstance;
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    app = await buildApp({ config, db, clock: new ManualClock(), logger: false });
    const body = z.object({ email: z.email(), postCode: z.string().min(5) });
    app.post('/api/v1/test-echo', async (request) => parseInput(body, request.body));
    app.get('/api/v1/test-limited', async () => {
      throw tooManyRequests(30);
    });
    app.get('/api/v1/test-conflict', async () => {
      throw new HttpError(409, 'ALREADY_REGISTERED', 'You already have an account.');
    });
    app.get('/api/v1/test-bug', async () => {
      throw new Error('secret detail: password=hunter2');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const post = (payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    app.inject({ method: 'POST', url: '/api/v1/test-echo', payload, headers });

  function expectEnvelope(res: Awaited<ReturnType<typeof post>>, status: number, code: string) {
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const json = res.json();
    expect(json).toMatchObject({
      code,
      message: expect.any(String),
      correlationId: res.headers['x-correlationid'],
    });
    expect(JSON.stringify(json)).not.toMatch(/FST_|at .*\.js|stack/);
    return json;
  }

  it('accepts a good body', async () => {
    const res = await post(JSON.stringify({ email: 'a@example.co.uk', postCode: 'HR8 2AB' }));
    expect(res.statusCode).toBe(200);
  });

  it('names each bad field with a 400', async () => {
    const json = expectEnvelope(
      await post(JSON.stringify({ email: 'nope', postCode: 'x' })),
      400,
      'BAD_REQUEST',
    );
    expect(Object.keys(json.fieldErrors).sort()).toEqual(['email', 'postCode']);
  });

  it('answers 400 for malformed JSON and for an empty JSON body', async () => {
    const bad = expectEnvelope(await post('{"email": '), 400, 'BAD_REQUEST');
    expect(bad.message).toBe('The request body is not valid JSON.');
    expectEnvelope(await post(''), 400, 'BAD_REQUEST');
  });

  it('answers 413 for a body over the limit', async () => {
    const json = expectEnvelope(
      await post(JSON.stringify({ email: 'x'.repeat(70 * 1024) })),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(json.message).toBe('The request body is too large.');
  });

  it('answers 415 for a content type the route does not take', async () => {
    const json = expectEnvelope(
      await post('email=a', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(json.message).toContain('application/json');
  });

  it("passes an HttpError's status, code and headers through", async () => {
    const limited = await app.inject({ method: 'GET', url: '/api/v1/test-limited' });
    expectEnvelope(limited, 429, 'TOO_MANY_REQUESTS');
    expect(limited.headers['retry-after']).toBe('30');
    const conflict = expectEnvelope(
      await app.inject({ method: 'GET', url: '/api/v1/test-conflict' }),
      409,
      'ALREADY_REGISTERED',
    );
    expect(conflict.message).toBe('You already have an account.');
  });

  it('hides the detail of an unexpected failure', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/test-bug' });
    const json = expectEnvelope(res, 500, 'INTERNAL');
    expect(JSON.stringify(json)).not.toContain('hunter2');
  });

  it('answers an unknown route with the 404 envelope', async () => {
    expectEnvelope(await app.inject({ method: 'DELETE', url: '/api/v1/nothing' }), 404, 'NOT_FOUND');
  });
});
