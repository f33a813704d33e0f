/**
 * Every route the app serves, sent bad input of every kind a client or an attacker could send: junk path
 * parameters, malformed and hostile JSON, wrong content types, oversized bodies and parameters, bad
 * tokens, and bodies generated from each call's own contract with values of the wrong kind. The rule
 * under test is the standard's: bad input gets a clear 4xx in the service's error envelope, never a 500
 * or a stack trace, and a refused request changes no customer's data.
 *
 * The routes come from the running app (not a list kept here), so a route added later is swept too.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import {
  contractBodyFields,
  fillParams,
  servedRoutes,
  stubWebApp,
  type ServedRoute,
} from '../../test/served-routes';
import { signIn, type SignedIn } from '../../test/sign-in';
import { staffConsole, staffOf } from '../../test/staff-sign-in';

type Route = ServedRoute;

/** Values a client could put where a path parameter goes, none of them a real id. */
const junkSegments = [
  'x',
  '%00',
  '..%2F..%2Fpackage.json',
  '%E0%A4%A',
  `1'%20OR%20'1'%3D'1`,
  '%F0%9F%98%80',
  'a'.repeat(3000),
];

const json = 'application/json';
/** Raw bodies with the content type they claim. */
const junkBodies: Array<{ name: string; payload?: string; type?: string }> = [
  { name: 'no body', type: json },
  { name: 'empty JSON body', payload: '', type: json },
  { name: 'truncated JSON', payload: '{"username":', type: json },
  { name: 'null', payload: 'null', type: json },
  { name: 'an array', payload: '[]', type: json },
  { name: 'a string', payload: '"hello"', type: json },
  { name: 'a number', payload: '123', type: json },
  { name: 'an empty object', payload: '{}', type: json },
  {
    name: 'prototype pollution',
    payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    type: json,
  },
  { name: 'deep nesting', payload: '['.repeat(5000) + ']'.repeat(5000), type: json },
  { name: 'a 200 KB field', payload: JSON.stringify({ username: 'a'.repeat(200_000) }), type: json },
  { name: 'over the body limit', payload: JSON.stringify({ x: 'a'.repeat(2_000_000) }), type: json },
  { name: 'plain text', payload: 'hello', type: 'text/plain' },
  { name: 'a form post', payload: 'username=a&password=b', type: 'application/x-www-form-urlencoded' },
  { name: 'XML', payload: '<a>1</a>', type: 'application/xml' },
  { name: 'JSON with a bad charset', payload: '{}', type: 'application/json; charset=utf-7' },
];

const junkQueries = [
  '?type=',
  '?type=a&type=b',
  `?relativeUrl=${'a'.repeat(3000)}`,
  '?relativeUrl=%E0%A4%A',
  '?%ZZ=1',
  '?to=%00&limit=-1',
  '?limit=1e309',
  '?__proto__[x]=1',
];

const junkAuthorizations = [
  'Bearer x.y.z',
  'Bearer eyJhbGciOiJub25lIn0.eyJjdXN0b21lcklkIjoiMSJ9.',
  `Bearer ${'a'.repeat(10_000)}`,
  'Basic Zm9vOmJhcg==',
  'garbage',
];

/** Customer data a refused request must leave alone (counters, audit and outbox rows may grow). */
const customerTables = [
  'customer',
  'customer_preferences',
  'identity_user',
  'identity_factor',
  'policy',
  'registration_request',
  'content_item',
];

/**
 * Calls where a well-formed but wrong value is not bad input but a failed check that counts towards the
 * account's lockout (identity_user's failure count), as a wrong password at sign-in does: any string is a
 * possible password, so the sweep's random strings are wrong passwords there.
 */
const countsWrongPasswords = /^POST \/api\/v1\/sign-in-methods\/[^/]+\/confirm-password$/;

const stackTrace = /\n\s+at .+:\d+:\d+|node_modules|\/src\/|\.ts:\d+/;

describe('bad input to every route', () => {
  let t: TestContext;
  let routes: Route[];
  let margaret: SignedIn;
  let bodyFields: Map<string, string[]>;
  let fingerprint: string;
  let webDist: string;
  let removeWebDist: () => Promise<void> = async () => undefined;

  const fingerprintNow = async () => {
    const parts = await Promise.all(
      customerTables.map(async (table) => {
        const { rows } = await t.db.query<{ sum: string | null }>(
          `SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS sum FROM ${table} t`,
        );
        return `${table}:${rows[0]?.sum ?? ''}`;
      }),
    );
    return parts.join(',');
  };

  /** Sends one request and checks what any client could see of a refusal. */
  const send = async (label: string, options: InjectOptions) => {
    const res = await t.app.inject(options);
    const where = `${label}: ${options.method} ${String(options.url).slice(0, 120)} -> ${res.statusCode}`;
    expect(res.statusCode, `${where} ${res.body.slice(0, 300)}`).toBeLessThan(500);
    expect(res.body, where).not.toMatch(stackTrace);
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode >= 400 && type.startsWith(json)) {
      const body = res.json<Record<string, unknown>>();
      const envelope =
        (typeof body['code'] === 'string' && typeof body['message'] === 'string') ||
        (typeof body['errorCode'] === 'string' && typeof body['errorSummary'] === 'string') ||
        typeof body['error'] === 'string';
      expect(envelope, `${where}: an error envelope, got ${res.body.slice(0, 200)}`).toBe(true);
    }
    const now = await fingerprintNow();
    const counted = (print: string) =>
      countsWrongPasswords.test(`${options.method} ${String(options.url)}`) && res.statusCode === 400
        ? print.replace(/identity_user:[^,]*/, 'identity_user:(counts wrong passwords)')
        : print;
    if (res.statusCode >= 400) {
      expect(counted(now), `${where} changed customer data`).toBe(counted(fingerprint));
    }
    fingerprint = now;
    return res;
  };

  const withParams = fillParams;

  beforeAll(async () => {
    const web = await stubWebApp();
    removeWebDist = web.remove;
    webDist = web.dir;
    t = await createTestApp({ WEB_DIST_DIR: webDist });
    routes = servedRoutes(t.app);
    margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    // Body field names by operation, from the OpenAPI document built from the contracts.
    bodyFields = await contractBodyFields(t.app);
    fingerprint = await fingerprintNow();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await removeWebDist();
  });

  it('finds the routes to sweep, the contracts among them', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /api/v1/content/getByRelativeUrl',
        'POST /api/v1/authn',
        'PATCH /api/v1/Preferences/:customerId',
        'POST /api/v1/audit',
      ]),
    );
    expect([...bodyFields.keys()]).toEqual(
      expect.arrayContaining(['POST /api/v1/authn', 'PATCH /api/v1/Preferences/{customerId}']),
    );
  });

  it('refuses junk in path parameters, queries and tokens', async () => {
    for (const route of routes) {
      const hasParams = /:\w|\*$/.test(route.url);
      for (const value of hasParams ? junkSegments : ['']) {
        const url = hasParams ? withParams(route.url, value) : route.url;
        await send('junk path', {
          method: route.method,
          url,
          headers: { authorization: margaret.authorization },
        });
      }
      for (const query of junkQueries) {
        await send('junk query', { method: route.method, url: withParams(route.url, 'x') + query });
      }
      for (const authorization of junkAuthorizations) {
        await send('junk token', {
          method: route.method,
          url: withParams(route.url, margaret.customerId),
          headers: { authorization },
        });
      }
    }
  }, 120_000);

  it('refuses malformed, hostile and oversized bodies', async () => {
    for (const route of routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))) {
      const url = withParams(route.url, margaret.customerId);
      for (const body of junkBodies) {
        const headers: Record<string, string> = { authorization: margaret.authorization };
        if (body.type) headers['content-type'] = body.type;
        await send(body.name, { method: route.method, url, headers, payload: body.payload });
      }
    }
    // The parsers must not have been fooled into polluting shared prototypes.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  }, 120_000);

  it("refuses each call's own fields with values of the wrong kind", async () => {
    const wrong = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 3000, maxLength: 3100 }),
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
    );
    let swept = 0;
    for (const route of routes) {
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      const fields = bodyFields.get(`${route.method} ${openApiPath}`);
      if (!fields) continue;
      swept++;
      const url = withParams(route.url, margaret.customerId);
      await fc.assert(
        fc.asyncProperty(
          fc.record(Object.fromEntries(fields.map((f) => [f, wrong])), { requiredKeys: [] }),
          async (body) => {
            await send('contract fields, wrong values', {
              method: route.method,
              url,
              headers: { authorization: margaret.authorization },
              payload: body,
            });
          },
        ),
        { numRuns: 25, seed: 20261121 },
      );
    }
    expect(swept).toBeGreaterThan(5);
  }, 180_000);

  it('refuses the same on the staff routes with a live staff session and its CSRF token (issue 41)', async () => {
    // A senior agent (every role's routes but the auditor's, which the auditor's session takes below).
    const consoles = [
      await staffConsole(t.app, staffOf['senior-agent']),
      await staffConsole(t.app, staffOf.auditor),
    ];
    // Signing out would end the session the sweep uses: it takes no input anyway.
    const staffRoutes = routes.filter(
      (r) => r.url.startsWith('/staff/api/') && r.url !== '/staff/api/sign-out',
    );
    expect(staffRoutes.length).toBeGreaterThan(8);
    const wrong = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 3000, maxLength: 3100 }),
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
    );
    for (const staff of consoles) {
      const headers = { cookie: staff.jar.header(), 'x-csrf-token': staff.csrfToken };
      for (const route of staffRoutes) {
        for (const value of /:\w/.test(route.url) ? junkSegments : []) {
          await send('staff junk path', { method: route.method, url: withParams(route.url, value), headers });
        }
        if (route.method === 'GET') continue;
        const url = withParams(route.url, 'C1000001');
        for (const body of junkBodies) {
          await send(`staff ${body.name}`, {
            method: route.method,
            url,
            headers: { ...headers, ...(body.type ? { 'content-type': body.type } : {}) },
            payload: body.payload,
          });
        }
        const fields = bodyFields.get(`${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`) ?? [];
        await fc.assert(
          fc.asyncProperty(
            fc.record(Object.fromEntries(fields.map((f) => [f, wrong])), { requiredKeys: [] }),
            async (body) => {
              await send('staff contract fields, wrong values', {
                method: route.method,
                url,
                headers,
                payload: body,
              });
            },
          ),
          { numRuns: 15, seed: 20261207 },
        );
        // A well-formed query whose every value is wrong.
        if (route.url === '/staff/api/customers/search') {
          for (const query of [
            { by: 'nameAndBirth', surname: 'x'.repeat(101), dateOfBirth: '1952-04-17', postcode: 'HR8 2AB' },
            { by: 'nameAndBirth', surname: "' OR 1=1 --", dateOfBirth: '0001-01-01', postcode: 'ZZ' },
            { by: 'email', email: `${'a'.repeat(300)}@example.org` },
            { by: 'policyNumber', policyNumber: '%00' },
            { by: ['customerId'], customerId: 'C1000001' },
          ]) {
            await send('staff search', {
              method: 'POST',
              url,
              headers,
              payload: { reason: 'A reason', query },
            });
          }
        }
      }
      // Still signed in: the sweep was refused by the routes, not by a lost session.
      const me = await t.app.inject({ method: 'GET', url: '/staff/api/session', headers });
      expect(me.statusCode).toBe(200);
    }
  }, 180_000);
});
