import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCalls } from '@portal/contracts';
import { loadConfig } from '../config';
import { installOpenApi } from './openapi';

interface Operation {
  operationId: string;
  servers?: Array<{ url: string }>;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, { description: string }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

describe('GET /api/docs', () => {
  let app: FastifyInstance;
  let doc: Document;
  beforeAll(async () => {
    app = Fastify();
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'https://portal.example.co.uk',
      ACCOUNT_BASE_URL: 'https://account.example.co.uk/svc',
      DOCUMENT_BASE_URL: 'https://documents.example.co.uk',
    });
    // Every contract call: this checks the generator; served-calls.test.ts checks the app documents what it serves.
    await installOpenApi(app, config, allCalls);
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    doc = res.json();
  });
  afterAll(() => app.close());

  it('is a structurally valid OpenAPI 3.x document', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    const entries = Object.entries(doc.paths);
    expect(entries.length).toBeGreaterThan(20);
    for (const [path, item] of entries) {
      expect(path.startsWith('/'), path).toBe(true);
      expect(path, 'paths use {param}, not :param').not.toMatch(/:\w/);
      for (const [method, op] of Object.entries(item)) {
        expect(methods.has(method), `${method} ${path}`).toBe(true);
        expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
        const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(inPath);
        expect(declared.every((p) => p.required === true)).toBe(true);
      }
    }
  });

  it('lists the customer-data calls with the bearer scheme', () => {
    expect(doc.components.securitySchemes['bearerAuth']).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const expected: Array<[string, string]> = [
      ['get', '/api/v1/profile/{customerId}'],
      ['get', '/api/v1/mfa/{customerId}/{method}'],
      ['post', '/api/v1/mfa/{customerId}/{method}'],
      ['post', '/api/v1/password/{customerId}/{action}'],
      ['get', '/api/v1/policy/{customerId}'],
      ['get', '/api/v1/policy/{customerId}/{policyId}'],
      ['get', '/api/v1/quote/{customerId}'],
      ['get', '/api/v1/agency/{customerId}'],
      ['get', '/api/v1/agency/{customerId}/fallback'],
      ['get', '/api/v1/agency/{customerId}/{policyId}'],
      ['get', '/api/v1/document/billing/{customerId}'],
      ['get', '/api/v1/document/policy/{customerId}/{policyId}'],
      ['get', '/api/v1/document/billing/{customerId}/{docId}'],
      ['get', '/api/v1/document/policy/{customerId}/{policyId}/{docId}'],
      ['get', '/api/v1/document/quote/{customerId}/{policyId}/{docId}/{title}'],
      ['post', '/api/v1/messaging/contact/{customerId}'],
      ['get', '/api/v1/customers/{customerId}/notifications'],
      ['patch', '/api/v1/customers/{customerId}/notifications/{id}/{notificationId}'],
    ];
    for (const [method, path] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.paths['/api/v1/agency/mutual-direct']?.['get']).toBeDefined();
  });

  it("points each operation at its service's configured base URL", () => {
    expect(doc.servers.map((s) => s.url)).toEqual(
      expect.arrayContaining([
        'https://portal.example.co.uk',
        'https://account.example.co.uk/svc',
        'https://documents.example.co.uk',
      ]),
    );
    expect(doc.paths['/api/v1/profile/{customerId}']?.['get']?.servers?.[0]?.url).toBe(
      'https://account.example.co.uk/svc',
    );
    expect(doc.paths['/api/v1/document/billing/{customerId}']?.['get']?.servers?.[0]?.url).toBe(
      'https://documents.example.co.uk',
    );
    expect(doc.paths['/api/v1/policy/{customerId}']?.['get']?.servers?.[0]?.url).toBe(
      'https://portal.example.co.uk',
    );
  });

  it('answers the same document at /api/docs/ and revalidates with its ETag', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/docs' });
    const alias = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(alias.statusCode).toBe(200);
    expect(alias.body).toBe(first.body);
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({
      method: 'GET',
      url: '/api/docs',
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});
