import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestDb } from '../../test/helpers';
import { ManualClock } from './clock';
import type { Db } from './db';

describe('request context', () => {
  let app: FastifyInstance;
  let db: Db;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    db = await createTestDb();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // What is logged (redaction, serializers) is checked on the real process in server.test.ts.
    app = await buildApp({ config, db, clock: new ManualClock(), logger: { level: 'info', stream } });
    app.get('/api/v1/test-log', async (request) => {
      request.log.info('handled');
      return { correlationId: request.correlationId, sessionId: request.sessionId ?? null };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('uses a sane X-CorrelationId, echoes it, and puts it and X-SessionId on every log line', async () => {
    lines.length = 0;
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/test-log',
      headers: { 'x-correlationid': 'corr-123', 'x-sessionid': '4f7c2a8e-0d2b-4c61-9d3e-2b7a5f1e9c00' },
    });
    expect(res.headers['x-correlationid']).toBe('corr-123');
    expect(res.json()).toEqual({
      correlationId: 'corr-123',
      sessionId: '4f7c2a8e-0d2b-4c61-9d3e-2b7a5f1e9c00',
    });
    const mine = lines.filter((l) => l['correlationId'] === 'corr-123');
    expect(mine.map((l) => l['msg'])).toEqual(['incoming request', 'handled', 'request completed']);
    for (const line of mine) expect(line['sessionId']).toBe('4f7c2a8e-0d2b-4c61-9d3e-2b7a5f1e9c00');
  });

  it('makes a fresh id when none or an unsafe one is sent, and ignores an unsafe session id', async () => {
    const none = await app.inject({ method: 'GET', url: '/api/v1/test-log' });
    expect(none.headers['x-correlationid']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await app.inject({
      method: 'GET',
      url: '/api/v1/test-log',
      headers: { 'x-correlationid': 'a b\n{"level":60}', 'x-sessionid': '<script>' },
    });
    expect(unsafe.headers['x-correlationid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(unsafe.json().sessionId).toBeNull();
    expect(none.headers['x-correlationid']).not.toBe(unsafe.headers['x-correlationid']);
  });
});
