/**
 * Bulk loads apply their lines in sets (a batch's versions read at once, a type's upserts written in a
 * few statements): each line must still come to what it would have come to applied on its own, in order.
 * Each file here is loaded whole, and again one line per request into a second portal: the answers must
 * be the same, and what is held must be too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkLineResult, BulkSummary } from '@portal/contracts/integration/bulk';
import type { Db } from '../../platform/db';
import {
  createTestApp,
  dropIsolatedDatabases,
  isolatedDatabases,
  type TestContext,
} from '../../../test/helpers';
import { bearer, clientToken, integrationEnv } from '../../../test/integration-client';

const customer = (key: string, version: number, changes: Record<string, unknown> = {}) => ({
  type: 'customer',
  key,
  record: {
    version,
    title: 'Ms',
    firstName: 'Ada',
    lastName: 'Newcombe',
    dateOfBirth: '1980-02-29',
    email: `${key.toLowerCase()}@example.org`,
    mobileNumber: '07700900999',
    landlineNumber: null,
    address: {
      lineOne: '1 Mill Lane',
      lineTwo: '',
      lineThree: '',
      town: 'Ledbury',
      county: 'Herefordshire',
      postCode: 'HR8 1AA',
    },
    agencyId: null,
    ...changes,
  },
});

const policy = (key: string, version: number, customerId: string, changes: Record<string, unknown> = {}) => ({
  type: 'policy',
  key,
  record: {
    version,
    customerId,
    productType: 'PHL',
    productName: 'Home Insurance',
    apiProductType: 'home',
    policyType: 'Home Insurance',
    status: 'Active',
    startDate: '2026-06-01',
    renewalDate: '2027-06-01',
    annualPremium: { visible: true, value: 410.5 },
    paymentFrequency: 'Annual',
    policyHolders: [{ name: 'Ms Ada Newcombe', primary: true }],
    vehicleReg: [],
    linesOfBusiness: [],
    isMigrationRenewal: false,
    allowMTA: true,
    onlineViewRenewal: false,
    agencyId: null,
    ...changes,
  },
});

const remove = (type: string, key: string, version: number) => ({ op: 'remove', type, key, version });

for (const { name, open } of isolatedDatabases())
  describe(`a bulk load in sets on ${name}`, () => {
    let whole: TestContext;
    let single: TestContext;
    let tokens: { whole: string; single: string };
    const dbs: Db[] = [];
    beforeAll(async () => {
      const app = async () => {
        const db = await open();
        dbs.push(db);
        return createTestApp(integrationEnv(), { db });
      };
      whole = await app();
      single = await app();
      tokens = { whole: await clientToken(whole.app), single: await clientToken(single.app) };
    });
    afterAll(async () => {
      await whole?.close();
      await single?.close();
      for (const db of dbs) await db.close();
      await dropIsolatedDatabases();
    });

    async function post(t: TestContext, token: string, lines: unknown[]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/integration/v1/bulk',
        headers: { ...bearer(token), 'content-type': 'application/x-ndjson' },
        payload: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
      });
      expect(res.statusCode).toBe(200);
      const out = res.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BulkLineResult | BulkSummary);
      expect(out.pop()).toHaveProperty('summary');
      return out as BulkLineResult[];
    }

    /** What is held of the records the lines name: bookkeeping, rows and audit rows. */
    async function state(t: TestContext, lines: Array<{ type: string; key: string }>) {
      const keys = [...new Set(lines.map((l) => l.key))].sort();
      const q = async (sql: string) => (await t.db.query(sql, [keys])).rows;
      return {
        held: await q(
          `SELECT record_type, record_key, version, removed, content_sha256, customer_id, client_id
           FROM integration_record WHERE record_key = ANY($1) ORDER BY 1, 2`,
        ),
        customers: await q(
          'SELECT customer_id, email, first_name FROM customer WHERE customer_id = ANY($1) ORDER BY 1',
        ),
        policies: await q(
          'SELECT policy_number, customer_id, annual_premium FROM policy WHERE policy_number = ANY($1) ORDER BY 1',
        ),
        audit: await q(
          `SELECT event_id, customer_id, on_behalf_of, details->>'key' AS key, details->'version' AS version
           FROM audit_event WHERE event_id LIKE 'integration.%' AND details->>'key' = ANY($1)
          ORDER BY details->>'key', id`,
        ),
      };
    }

    /** Loads the lines whole, and one per request into the other portal: answers and state must agree. */
    async function both(lines: Array<{ type: string; key: string; [field: string]: unknown }>) {
      const results = await post(whole, tokens.whole, lines);
      const oneByOne: BulkLineResult[] = [];
      for (const [n, line] of lines.entries()) {
        const [result] = await post(single, tokens.single, [line]);
        oneByOne.push({ ...result!, line: n + 1 });
      }
      expect(results).toEqual(oneByOne);
      expect(await state(whole, lines)).toEqual(await state(single, lines));
      return results;
    }

    const statuses = (results: BulkLineResult[]) =>
      results.map((r) => (r.status === 'refused' ? `${r.status} ${r.error!.code}` : r.status));

    it('writes the same record twice in one batch as two versions, each audited', async () => {
      const results = await both([
        customer('C3100001', 1),
        customer('C3100001', 2, { firstName: 'Adah' }),
        customer('C3100001', 2, { firstName: 'Adah' }),
      ]);
      expect(statuses(results)).toEqual(['created', 'updated', 'unchanged']);
      const { customers, audit } = await state(whole, [{ type: 'customer', key: 'C3100001' }]);
      expect(customers).toEqual([
        { customer_id: 'C3100001', email: 'c3100001@example.org', first_name: 'Adah' },
      ]);
      expect(audit.map((a) => [a.event_id, a.on_behalf_of, a.version])).toEqual([
        ['integration.customer.created', 'client:test-system', 1],
        ['integration.customer.updated', 'client:test-system', 2],
      ]);
    });

    it('refuses an older version after a newer one in the same batch, and other content at the same version', async () => {
      const results = await both([
        customer('C3100002', 1),
        policy('310X0000002', 3, 'C3100002'),
        policy('310X0000002', 2, 'C3100002'),
        policy('310X0000002', 3, 'C3100002', { annualPremium: { visible: true, value: 1 } }),
      ]);
      expect(statuses(results)).toEqual([
        'created',
        'created',
        'refused STALE_VERSION',
        'refused VERSION_CONFLICT',
      ]);
      expect(results[2]!.error).toMatchObject({ status: 409, heldVersion: 3 });
    });

    it('keeps a tombstone against an older version and lets a newer one create the record again', async () => {
      const results = await both([
        customer('C3100003', 1),
        policy('310X0000003', 1, 'C3100003'),
        remove('policy', '310X0000003', 2),
        policy('310X0000003', 1, 'C3100003'),
        remove('policy', '310X0000003', 2),
        policy('310X0000003', 3, 'C3100003', { annualPremium: { visible: true, value: 99 } }),
      ]);
      expect(statuses(results)).toEqual([
        'created',
        'created',
        'removed',
        'refused STALE_VERSION',
        'unchanged',
        'created',
      ]);
      const { policies } = await state(whole, [{ type: 'policy', key: '310X0000003' }]);
      expect(policies).toEqual([
        { policy_number: '310X0000003', customer_id: 'C3100003', annual_premium: '99.00' },
      ]);
    });

    it('takes a reference to a record created on an earlier line, and refuses one created on a later line', async () => {
      const results = await both([
        policy('310X0000004', 1, 'C3100004'),
        customer('C3100004', 1),
        policy('310X0000005', 1, 'C3100004'),
        policy('310X0000006', 1, 'C3100005'),
        customer('C3100005', 1, { agencyId: 'nowhere' }),
        policy('310X0000007', 1, 'C3100005'),
      ]);
      expect(statuses(results)).toEqual([
        'refused REFERENCE_NOT_HELD',
        'created',
        'created',
        'refused REFERENCE_NOT_HELD',
        'refused REFERENCE_NOT_HELD',
        'refused REFERENCE_NOT_HELD',
      ]);
      expect(results[0]!.error).toMatchObject({
        status: 422,
        fieldErrors: { customerId: expect.any(String) },
      });
      expect(results[4]!.error).toMatchObject({ fieldErrors: { agencyId: expect.any(String) } });
    });

    it('refuses a failing line among good ones and writes the others', async () => {
      const results = await both([
        customer('C3100010', 1),
        customer('C3100011', 1, { dateOfBirth: '2030-01-01' }),
        customer('C3100012', 1, { email: 'C3100010@example.org' }),
        customer('C3100013', 1),
        policy('310X0000010', 1, 'C3100010'),
        policy('310X0000010', 2, 'C3100013'),
        policy('310X0000011', 1, 'C3100013'),
        { type: 'policy', key: '310X0000012', record: { version: 1 } },
        policy('310X0000013', 1, 'C3100011'),
      ]);
      expect(statuses(results)).toEqual([
        'created',
        'refused BAD_REQUEST',
        'refused EMAIL_IN_USE',
        'created',
        'created',
        'refused REFERENCE_NOT_HELD',
        'created',
        'refused BAD_REQUEST',
        'refused REFERENCE_NOT_HELD',
      ]);
      expect(results[1]!.error).toMatchObject({
        status: 400,
        fieldErrors: { dateOfBirth: expect.any(String) },
      });
      expect(results[5]!.error).toMatchObject({
        status: 422,
        fieldErrors: { customerId: expect.any(String) },
      });
    });

    it('lets a customer take the address another gave up on an earlier line, not on a later one', async () => {
      await both([customer('C3100020', 1), customer('C3100021', 1)]);
      const results = await both([
        customer('C3100020', 2, { email: 'C3100021@example.org' }),
        customer('C3100021', 2, { email: 'moved.3100021@example.org' }),
        customer('C3100020', 3, { email: 'c3100021@EXAMPLE.org' }),
      ]);
      expect(statuses(results)).toEqual(['refused EMAIL_IN_USE', 'updated', 'updated']);
    });

    it('answers a re-sent line by its text only while nothing else has written its record since', async () => {
      const lines = [
        customer('C3100040', 1),
        policy('310X0000040', 1, 'C3100040'),
        policy('310X0000041', 1, 'C3100040'),
      ];
      expect(statuses(await both(lines))).toEqual(['created', 'created', 'created']);
      // The same content in another order of keys is checked again, and is the same.
      const { version, ...rest } = customer('C3100040', 1).record;
      const reordered = { record: { ...rest, version }, key: 'C3100040', type: 'customer' };
      expect(statuses(await both([...lines, reordered]))).toEqual([
        'unchanged',
        'unchanged',
        'unchanged',
        'unchanged',
      ]);
      // A newer version written by the single-record call, or removed: the old line is stale now.
      for (const [t, token] of [
        [whole, tokens.whole],
        [single, tokens.single],
      ] as const) {
        const put = await t.app.inject({
          method: 'PUT',
          url: '/integration/v1/policies/310X0000041',
          headers: bearer(token),
          payload: policy('310X0000041', 2, 'C3100040').record,
        });
        expect(put.json()).toMatchObject({ status: 'updated' });
      }
      expect(statuses(await both([remove('policy', '310X0000040', 2), ...lines]))).toEqual([
        'removed',
        'unchanged',
        'refused STALE_VERSION',
        'refused STALE_VERSION',
      ]);
    });

    it('answers unchanged for every line of the same file sent again', async () => {
      const lines = [
        customer('C3100030', 1),
        policy('310X0000030', 1, 'C3100030'),
        remove('policy', '310X0000031', 1),
      ];
      expect(statuses(await both(lines))).toEqual(['created', 'created', 'removed']);
      expect(statuses(await both(lines))).toEqual(['unchanged', 'unchanged', 'unchanged']);
    });
  });
