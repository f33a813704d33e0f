import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, type TestContext } from '../../test/helpers';

describe('health endpoints', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports the process up and the database reachable', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'pglite' });
  });

  it('echoes a sane correlation id and replaces an unsafe one', async () => {
    const echoed = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-correlationid': 'abc-123' },
    });
    expect(echoed.headers['x-correlationid']).toBe('abc-123');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-correlationid': '<script>' },
    });
    expect(replaced.headers['x-correlationid']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports not ready, without failing the process, when the database is gone', async () => {
    const db = await createTestDb();
    const own = await createTestApp({}, { db });
    await db.close();
    const ready = await own.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: 'NOT_READY', message: 'The database is not reachable.' });
    const health = await own.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    await own.app.close();
  });
});
