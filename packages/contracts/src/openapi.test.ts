import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCalls } from './call';
import { BEARER_SCHEME, CLIENT_SCHEME, STAFF_SCHEME, buildOpenApiDocument, toOpenApiPath } from './openapi';

const servers = {
  content: 'https://content.example.co.uk',
  account: 'https://account.example.co.uk/svc',
  policy: 'https://portal.example.co.uk',
  document: 'https://portal.example.co.uk',
  portal: 'https://portal.example.co.uk',
  eventlog: 'https://portal.example.co.uk',
  registration: 'https://portal.example.co.uk',
  identity: 'https://id.example.co.uk',
};
const doc = buildOpenApiDocument({ servers, version: '1.2.3' });
// The document as a client receives it: JSON, so anything not serialisable would be lost here.
const json = JSON.parse(JSON.stringify(doc)) as {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, Record<string, unknown>> };
};

interface Operation {
  operationId: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  servers?: Array<{ url: string }>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: Record<string, unknown> }> }
  >;
}

function operation(method: string, path: string): Operation {
  const op = json.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`No ${method} ${path} in the document`);
  return op;
}

const operations = Object.entries(json.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

/** The calls this package's customer-data files define: spec customer-data §7 and access-and-session §7. */
const customerDataCalls: Array<[string, string, string]> = [
  ['GET', '/api/v1/profile/{customerId}', 'account'],
  ['GET', '/api/v1/mfa/{customerId}/{method}', 'account'],
  ['POST', '/api/v1/mfa/{customerId}/{method}', 'portal'],
  ['POST', '/api/v1/password/{customerId}/{action}', 'portal'],
  ['GET', '/api/v1/policy/{customerId}', 'policy'],
  ['GET', '/api/v1/policy/{customerId}/{policyId}', 'policy'],
  ['GET', '/api/v1/quote/{customerId}', 'policy'],
  ['GET', '/api/v1/agency/{customerId}', 'policy'],
  ['GET', '/api/v1/agency/{customerId}/fallback', 'policy'],
  ['GET', '/api/v1/agency/{customerId}/{policyId}', 'policy'],
  ['GET', '/api/v1/agency/mutual-direct', 'policy'],
  ['GET', '/api/v1/document/billing/{customerId}', 'document'],
  ['GET', '/api/v1/document/policy/{customerId}/{policyId}', 'document'],
  ['GET', '/api/v1/document/billing/{customerId}/{docId}', 'document'],
  ['GET', '/api/v1/document/policy/{customerId}/{policyId}/{docId}', 'document'],
  ['GET', '/api/v1/document/quote/{customerId}/{policyId}/{docId}/{title}', 'document'],
  ['POST', '/api/v1/messaging/contact/{customerId}', 'account'],
  ['GET', '/api/v1/customers/{customerId}/notifications', 'account'],
  ['PATCH', '/api/v1/customers/{customerId}/notifications/{id}/{notificationId}', 'account'],
];

/**
 * The other rows of both call tables, defined by the other contract files. Each is checked once its
 * file exists; paths are matched loosely where the spec leaves the exact shape open.
 */
const otherCallTableRows: Array<{ file: string; method: string; path: RegExp; row: string }> = [
  { file: 'content', method: 'GET', path: /^\/api\/v1\/content\/getbytype$/, row: 'Site settings' },
  { file: 'content', method: 'GET', path: /\/content\/getByRelativeUrl$/, row: 'Content for a page' },
  { file: 'content', method: 'GET', path: /\/content\/getnavigation$/, row: 'Navigation' },
  {
    file: 'account',
    method: 'POST',
    path: /^\/api\/v1\/customers\/\{customerId\}\/status-token$/,
    row: 'Status token',
  },
  { file: 'account', method: 'GET', path: /\/Preferences\b.*marketing/i, row: 'Marketing preferences' },
  {
    file: 'account',
    method: 'GET',
    path: /\/Preferences\b.*correspondence/i,
    row: 'Correspondence preferences',
  },
  { file: 'account', method: 'PATCH', path: /\/Preferences\b/i, row: 'Update preferences' },
  { file: 'eventlog', method: 'POST', path: /^\/api\/v1\/audit$/, row: 'Audit event' },
  {
    file: 'registration',
    method: 'POST',
    path: /^\/api\/v1\/registration\/complete$/,
    row: 'Complete registration',
  },
  { file: 'registration', method: 'POST', path: /\/Registration$/i, row: 'Start registration' },
  { file: 'registration', method: 'POST', path: /\/Registration\/resetPassword$/i, row: 'Reset password' },
  { file: 'identity', method: 'POST', path: /^\/api\/v1\/authn$/, row: 'Sign in' },
  { file: 'identity', method: 'POST', path: /\/factors\/\{[^}]+\}\/verify$/, row: 'Verify MFA factor' },
  { file: 'identity', method: 'GET', path: /^\/api\/v1\/sessions\/me$/, row: 'Session check' },
];

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.1 document with info, tags and the configured servers', () => {
    expect(json.openapi).toBe('3.1.0');
    expect(json.info).toMatchObject({ title: 'Customer portal API', version: '1.2.3' });
    expect(json.servers.map((s) => s.url).sort()).toEqual(
      [
        'https://account.example.co.uk/svc',
        'https://content.example.co.uk',
        'https://id.example.co.uk',
        'https://portal.example.co.uk',
      ].sort(),
    );
    const tagNames = json.tags.map((t) => t.name);
    for (const { op } of operations) expect(tagNames).toEqual(expect.arrayContaining(op.tags));
  });

  it('has every defined call, under its {param} path and method, with a unique operation id', () => {
    for (const call of allCalls()) {
      const op = operation(call.method, toOpenApiPath(call.path));
      expect(op.operationId).toBe(call.id);
      expect(op.tags).toEqual([call.service]);
    }
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.length).toBe(allCalls().length);
  });

  it('has every customer-data call of both call tables, on its service', () => {
    for (const [method, path, service] of customerDataCalls) {
      const op = operation(method, path);
      expect(op.tags).toEqual([service]);
      expect(op.servers).toEqual([
        { url: servers[service as keyof typeof servers], description: `${service} service` },
      ]);
    }
  });

  for (const { file, method, path, row } of otherCallTableRows) {
    const written = existsSync(new URL(`./${file}.ts`, import.meta.url));
    it.skipIf(!written)(`has the call-table row "${row}" from ${file}.ts`, () => {
      const found = operations.some(({ path: p, method: m }) => m === method.toLowerCase() && path.test(p));
      expect(found, `${method} ${path} from ${file}.ts`).toBe(true);
    });
  }

  it('declares every path parameter, required, and no path parameter the path lacks', () => {
    for (const { path, op } of operations) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), `${path}`).toEqual(inPath);
      for (const p of declared) expect(p.required, `${path} ${p.name}`).toBe(true);
    }
  });

  it('describes the parameter rules: customer id pattern, policy number pattern, page bounds', () => {
    const op = operation('GET', '/api/v1/document/policy/{customerId}/{policyId}');
    const param = (name: string) => op.parameters?.find((p) => p.name === name);
    expect(param('customerId')?.schema).toMatchObject({ type: 'string', pattern: '^C\\d{7}$' });
    expect(param('policyId')?.schema).toMatchObject({ pattern: '^\\d{3}(?:X\\d{7}|[QP]\\d{8})$' });
    expect(param('page')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1 },
    });
    expect(param('pageSize')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 50 },
    });
  });

  it('puts the bearer scheme on every call that needs a token, the client scheme with its scopes on integration calls, the staff session on staff calls, and nothing on the others', () => {
    expect(json.components.securitySchemes[BEARER_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(json.components.securitySchemes[CLIENT_SCHEME]).toMatchObject({
      type: 'oauth2',
      flows: { clientCredentials: { scopes: { 'customers.write': expect.any(String) } } },
    });
    const calls = new Map(allCalls().map((c) => [c.id, c]));
    for (const { op } of operations) {
      const call = calls.get(op.operationId)!;
      if (call.auth) expect(op.security).toEqual([{ [BEARER_SCHEME]: [] }]);
      else if (call.clientScope) {
        expect(op.security).toEqual([call.clientScope].flat().map((scope) => ({ [CLIENT_SCHEME]: [scope] })));
        expect(op.tags).toEqual(['integration']);
      } else if (call.staffRoles) {
        expect(op.security).toEqual([{ [STAFF_SCHEME]: [] }]);
        expect(op.tags).toEqual(['staff']);
      } else expect(op.security).toBeUndefined();
    }
    expect(operation('PUT', '/integration/v1/customers/{customerId}').security).toEqual([
      { integrationClient: ['customers.write'] },
    ]);
    expect(operation('GET', '/api/v1/agency/mutual-direct').security).toBeUndefined();
    expect(operation('GET', '/api/v1/profile/{customerId}').security).toEqual([{ bearerAuth: [] }]);
  });

  it('describes bodies: required when the call needs one, optional for the code request', () => {
    const password = operation('POST', '/api/v1/password/{customerId}/{action}');
    expect(password.requestBody?.required).toBe(true);
    expect(password.requestBody?.content['application/json']).toBeDefined();
    expect(operation('POST', '/api/v1/mfa/{customerId}/{method}').requestBody?.required).toBe(false);
    expect(operation('POST', '/api/v1/messaging/contact/{customerId}').requestBody?.content).toHaveProperty(
      'application/json',
    );
    for (const { method, op } of operations) if (method === 'get') expect(op.requestBody).toBeUndefined();
  });

  it('lists responses by status, errors as the named envelope, PDFs as binary', () => {
    const profile = operation('GET', '/api/v1/profile/{customerId}');
    expect(Object.keys(profile.responses).sort()).toEqual(['200', '400', '401', '404']);
    expect(profile.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Profile',
    });
    expect(profile.responses['404']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    const password = operation('POST', '/api/v1/password/{customerId}/{action}');
    expect(password.responses['400']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/PasswordChangeError',
    });
    const pdf = operation('GET', '/api/v1/document/quote/{customerId}/{policyId}/{docId}/{title}');
    expect(pdf.responses['200']?.content).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    });
    expect(pdf.responses['200']).toHaveProperty(['headers', 'Content-Disposition']);
  });

  it('resolves every $ref to a component', () => {
    const refs = [...JSON.stringify(json).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, kind, name] of refs) {
      expect(
        (json.components as Record<string, Record<string, unknown>>)[kind!],
        `${kind}/${name}`,
      ).toHaveProperty([name!]);
    }
  });

  it('describes the policy number and grouped policies in the components', () => {
    const list = json.components.schemas['PolicyList'] as { required: string[] };
    expect(list.required).toEqual(
      expect.arrayContaining(['active', 'renewing', 'upcoming', 'expired', 'currentPage', 'lastPage']),
    );
    const policy = json.components.schemas['Policy'] as { properties: Record<string, unknown> };
    expect(Object.keys(policy.properties)).toEqual(
      expect.arrayContaining([
        'policyNumber',
        'annualPremium',
        'linesOfBusiness',
        'policyActions',
        'vehicleReg',
      ]),
    );
  });

  it('leaves servers off the operations when none are configured', () => {
    const bare = buildOpenApiDocument();
    expect(bare.servers).toEqual([]);
    const op = bare.paths?.['/api/v1/profile/{customerId}']?.get;
    expect(op).toBeDefined();
    expect(op?.servers).toBeUndefined();
  });
});

describe('call registry', () => {
  it('has no two calls on the same method and path (they would clash when mounted together)', () => {
    const keys = allCalls().map((c) => `${c.method} ${toOpenApiPath(c.path)}`);
    const dupes = keys.filter((k, i) => keys.indexOf(k) !== i);
    expect(dupes).toEqual([]);
  });

  it('has a params schema naming every path parameter of every call', () => {
    for (const call of allCalls()) {
      const names = [...call.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      if (names.length === 0) continue;
      expect(call.params, call.id).toBeDefined();
      const shape = (call.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      expect(Object.keys(shape).sort(), call.id).toEqual(names.sort());
    }
  });
});
