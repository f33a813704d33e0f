/**
 * Bulk loads: NDJSON in, a result per line out, each line applied on its own exactly as the single-record
 * call would apply it, never all-or-nothing; the same file again changes nothing; a load resumes from a
 * line.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkLineResult, BulkSummary } from '@portal/contracts/integration/bulk';
import type { Db } from '../../platform/db';
import {
  createTestApp,
  dropIsolatedDatabases,
  isolatedDatabases,
  type TestContext,
} from '../../../test/helpers';
import { bearer, clientToken, eventsOnlyClient, integrationEnv } from '../../../test/integration-client';
import { signIn } from '../../../test/sign-in';
import { bulkLoad, ndjsonLines } from './bulk';

const james = 'C1000006';

const policy = (policyNumber: string, version: number, extra: Record<string, unknown> = {}) => ({
  type: 'policy',
  key: policyNumber,
  record: {
    version,
    customerId: james,
    productType: 'PHL',
    productName: 'Home Insurance',
    apiProductType: 'home',
    policyType: 'Home Insurance',
    status: 'Active',
    startDate: '2026-06-01',
    renewalDate: '2027-06-01',
    annualPremium: { visible: true, value: 410.5 },
    paymentFrequency: 'Annual',
    policyHolders: [{ name: 'Mr James Carter', primary: true }],
    vehicleReg: [],
    linesOfBusiness: [
      {
        type: 'Home',
        coverLevel: 'Standard',
        risks: [{ displayName: 'Buildings', registration: null, covers: [{ type: 'Buildings' }] }],
        valuables: [],
        bicycles: [],
      },
    ],
    isMigrationRenewal: false,
    allowMTA: true,
    onlineViewRenewal: false,
    agencyId: null,
    ...extra,
  },
});

const ndjson = (lines: unknown[]) =>
  `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;

function parse(body: string): { results: BulkLineResult[]; summary: BulkSummary['summary'] } {
  const lines = body
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as BulkLineResult | BulkSummary);
  const last = lines.pop() as BulkSummary;
  expect(last).toHaveProperty('summary');
  return { results: lines as BulkLineResult[], summary: last.summary };
}

for (const { name, open } of isolatedDatabases())
  describe(`POST /integration/v1/bulk on ${name}`, () => {
    let t: TestContext;
    let db: Db;
    let token: string;
    beforeAll(async () => {
      db = await open();
      t = await createTestApp(integrationEnv(), { db });
      token = await clientToken(t.app);
    });
    afterAll(async () => {
      await t?.close();
      await db?.close();
      await dropIsolatedDatabases();
    });

    const load = (body: string, auth = token, type = 'application/x-ndjson') =>
      t.app.inject({
        method: 'POST',
        url: '/integration/v1/bulk',
        headers: { ...bearer(auth), 'content-type': type },
        payload: body,
      });

    it('applies each line on its own and answers a result per line, then the summary', async () => {
      const file = ndjson([
        policy('120X0000001', 1),
        policy('120X0000002', 1, { renewalDate: '2025-01-01' }),
        policy('120X0000003', 1, { customerId: 'C9999999' }),
        '{"type": "policy", "key": ',
        { type: 'vehicle', key: 'AB12CDE', record: { version: 1 } },
        '',
        { op: 'remove', type: 'policy', key: '120X0000009', version: 4 },
        { type: 'policy', key: 'not-a-number', record: policy('120X0000004', 1).record },
      ]);
      const res = await load(file);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const { results, summary } = parse(res.body);
      expect(results.map((r) => [r.line, r.status])).toEqual([
        [1, 'created'],
        [2, 'refused'],
        [3, 'refused'],
        [4, 'refused'],
        [5, 'refused'],
        [7, 'removed'],
        [8, 'refused'],
      ]);
      expect(results[1]!.error).toMatchObject({
        status: 400,
        fieldErrors: { 'record.renewalDate': expect.any(String) },
      });
      expect(results[2]!.error).toMatchObject({ status: 422, code: 'REFERENCE_NOT_HELD' });
      expect(results[3]!.error).toMatchObject({ status: 400, code: 'INVALID_JSON' });
      expect(results[4]!.error).toMatchObject({ status: 400, fieldErrors: { type: 'Unknown record type' } });
      expect(results[6]!.error).toMatchObject({ status: 400, fieldErrors: { key: expect.any(String) } });
      expect(summary).toEqual({ lines: 7, created: 1, updated: 0, unchanged: 0, removed: 1, refused: 5 });

      // What was applied is what the customer sees; nothing of the refused lines is.
      const customer = await signIn(t, 'james.carter@example.co.uk');
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/v1/policy/${james}`,
        headers: { authorization: customer.authorization },
      });
      const numbers = Object.values(list.json() as Record<string, unknown>)
        .filter(Array.isArray)
        .flat()
        .map((p) => (p as { policyNumber: string }).policyNumber);
      expect(numbers).toEqual(['120X0000001']);
    });

    it('answers unchanged for a file loaded again, and 409s in its lines for older versions', async () => {
      const file = ndjson([policy('121X0000001', 5), policy('121X0000002', 5)]);
      expect(parse((await load(file)).body).summary.created).toBe(2);
      expect(parse((await load(file)).body).summary).toEqual({
        lines: 2,
        created: 0,
        updated: 0,
        unchanged: 2,
        removed: 0,
        refused: 0,
      });
      const older = parse((await load(ndjson([policy('121X0000001', 4)]))).body).results[0]!;
      expect(older).toMatchObject({
        status: 'refused',
        error: { status: 409, code: 'STALE_VERSION', heldVersion: 5 },
      });
    });

    it('refuses a line whose type needs a scope the client lacks, and a line over the size limit', async () => {
      const limited = await createTestApp({
        INTEGRATION_CLIENTS: JSON.stringify([
          {
            clientId: 'crm-only',
            secretSha256: createHash('sha256').update('crm-only-secret-0123456789abcdef').digest('hex'),
            scopes: ['customers.write'],
          },
        ]),
      });
      try {
        const crm = await clientToken(
          limited.app,
          { clientId: 'crm-only', secret: 'crm-only-secret-0123456789abcdef' },
          ['customers.write'],
        );
        const res = await limited.app.inject({
          method: 'POST',
          url: '/integration/v1/bulk',
          headers: { ...bearer(crm), 'content-type': 'application/x-ndjson' },
          payload: ndjson([
            policy('122X0000001', 1),
            `{"type":"customer","key":"C1000006","record":"${'x'.repeat(1024 * 1024 + 10)}"}`,
          ]),
        });
        const { results } = parse(res.body);
        expect(results[0]).toMatchObject({ line: 1, status: 'refused', error: { status: 403 } });
        expect(results[1]).toMatchObject({ line: 2, status: 'refused', error: { status: 413 } });
      } finally {
        await limited.close();
      }
    });

    it('needs NDJSON and a write scope', async () => {
      const json = await load(JSON.stringify(policy('123X0000001', 1)), token, 'application/json');
      expect(json.statusCode).toBe(415);
      expect(json.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      const reader = await clientToken(t.app, eventsOnlyClient, ['events.read']);
      expect((await load(ndjson([policy('123X0000001', 1)]), reader)).statusCode).toBe(403);
    });

    it('resumes a load from a given line (what npm run import does after a stop)', async () => {
      const file = ndjson([policy('124X0000001', 1), policy('124X0000002', 1), policy('124X0000003', 1)]);
      const seen: Array<BulkLineResult | BulkSummary> = [];
      for await (const r of bulkLoad(
        t.app.ctx,
        Readable.from([file]),
        { clientId: 'import', correlationId: null },
        'all',
        {
          fromLine: 2,
        },
      )) {
        seen.push(r);
      }
      expect(seen).toEqual([
        { line: 2, type: 'policy', key: '124X0000002', status: 'created', version: 1 },
        { line: 3, type: 'policy', key: '124X0000003', status: 'created', version: 1 },
        { summary: { lines: 2, created: 2, updated: 0, unchanged: 0, removed: 0, refused: 0 } },
      ]);
    });
  });

describe('ndjsonLines', () => {
  it('splits lines across chunk boundaries, numbers them, and reports a line over the limit without holding it', async () => {
    const chunks = ['{"a":1}\n{"b"', ':2}\r\n\n', 'x'.repeat(30), 'y'.repeat(30), '\n{"c":3}'];
    const lines = [];
    for await (const line of ndjsonLines(Readable.from(chunks.map((c) => Buffer.from(c))), 40))
      lines.push(line);
    expect(lines).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"b":2}\r' },
      { number: 3, text: '' },
      { number: 4, tooLong: true },
      { number: 5, text: '{"c":3}' },
    ]);
  });
});
