import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modules } from '../modules';
import { createTestApp } from '../../test/helpers';
import type { ServiceModule } from './module';

/**
 * The mounting scheme: each module is served under the path of its configured base URL, and the SPA is
 * told that base URL, so moving a service is configuration only. A probe module stands in for a real
 * one (its name picks its base URL) so the test does not depend on any module's own routes.
 */
const probe: ServiceModule = {
  name: 'document',
  async routes(app) {
    app.get('/api/v1/mount-probe', async (request) => ({ url: request.url }));
  },
};

describe('service mounting', () => {
  beforeAll(() => {
    modules.push(probe);
  });
  afterAll(() => {
    modules.splice(modules.indexOf(probe), 1);
  });

  it('mounts a module at the site root by default', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/mount-probe' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ url: '/api/v1/mount-probe' });
      const settings = await t.app.inject({ method: 'GET', url: '/app-settings.json' });
      expect(settings.json().documentBaseUrl).toBe('http://localhost:3000');
    } finally {
      await t.close();
    }
  });

  it('moves a module under the path of its base URL, and tells the SPA', async () => {
    const t = await createTestApp({ DOCUMENT_BASE_URL: 'http://localhost:3000/document-svc/' });
    try {
      const moved = await t.app.inject({ method: 'GET', url: '/document-svc/api/v1/mount-probe' });
      expect(moved.statusCode).toBe(200);
      const old = await t.app.inject({ method: 'GET', url: '/api/v1/mount-probe' });
      expect(old.statusCode).toBe(404);
      expect(old.json()).toMatchObject({ code: 'NOT_FOUND' });
      const settings = await t.app.inject({ method: 'GET', url: '/app-settings.json' });
      expect(settings.json().documentBaseUrl).toBe('http://localhost:3000/document-svc');
      expect(settings.json().accountBaseUrl).toBe('http://localhost:3000');
    } finally {
      await t.close();
    }
  });

  it('mounts by path even when the base URL names another host (that host routes to this instance)', async () => {
    const t = await createTestApp({ DOCUMENT_BASE_URL: 'https://documents.example.co.uk/v2' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/v2/api/v1/mount-probe' });
      expect(res.statusCode).toBe(200);
      const settings = await t.app.inject({ method: 'GET', url: '/app-settings.json' });
      expect(settings.json().documentBaseUrl).toBe('https://documents.example.co.uk/v2');
    } finally {
      await t.close();
    }
  });

  it('serves only the modules MODULES names', async () => {
    const t = await createTestApp({ MODULES: 'content' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/mount-probe' });
      expect(res.statusCode).toBe(404);
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
