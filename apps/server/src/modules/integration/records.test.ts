/**
 * The insurer's records loaded through the integration API (agencies, customers, policies, quotes,
 * notifications), as a client and then a signed-in customer observe them. On the embedded database only:
 * the tests add and remove records that a shared PostgreSQL test database would keep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, clientToken, eventsOnlyClient, integrationEnv } from '../../../test/integration-client';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { pdfText } from '../../../test/pdf-text';
import { signIn, type SignedIn } from '../../../test/sign-in';

const MARGARET = 'margaret.thompson@example.co.uk';
const MARGARET_ID = 'C1000001';
const POLICY = '999X0000001';
const MTA_URL = 'https://policies.meridian.example/change/999X0000001';

const policyRecord = (version: number | string, changes: Record<string, unknown> = {}) => ({
  version,
  customerId: MARGARET_ID,
  productType: 'PHL',
  productName: 'Home Insurance',
  apiProductType: 'home',
  policyType: 'Home Insurance',
  status: 'Active',
  startDate: '2026-06-01',
  renewalDate: '2027-06-01',
  annualPremium: { visible: true, value: 412.5 },
  paymentFrequency: 'Annual',
  policyHolders: [{ name: 'Mrs Margaret Thompson', primary: true }],
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
  actionUrls: { midTermAdjustment: MTA_URL, viewRenewal: null, requestAChange: null },
  ...changes,
});

const customerRecord = (version: number, changes: Record<string, unknown> = {}) => ({
  version,
  title: 'Ms',
  firstName: 'Ada',
  lastName: 'Newcombe',
  dateOfBirth: '1980-02-29',
  email: 'ada.newcombe@example.co.uk',
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
});

describe('the records of the integration API', () => {
  let t: TestContext;
  let token: string;
  let margaret: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(integrationEnv());
    token = await clientToken(t.app);
    margaret = await signIn(t, MARGARET);
  });
  afterAll(async () => {
    await t?.close();
  });

  const put = (url: string, payload: unknown, auth = token) =>
    t.app.inject({ method: 'PUT', url, payload: payload as object, headers: bearer(auth) });
  const remove = (url: string, version: number | string, auth = token) =>
    t.app.inject({ method: 'DELETE', url: `${url}?version=${version}`, headers: bearer(auth) });
  const asMargaret = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: margaret.authorization } });
  const held = async (type: string, key: string) =>
    (
      await t.db.query<{ version: unknown; removed: boolean }>(
        'SELECT version, removed FROM integration_record WHERE record_type = $1 AND record_key = $2',
        [type, key],
      )
    ).rows[0];
  const count = async (sql: string, params: unknown[]) =>
    Number((await t.db.query<{ n: string }>(sql, params)).rows[0]?.n);
  const margaretsPolicies = async () => {
    const res = await asMargaret(`/api/v1/policy/${MARGARET_ID}`);
    expect(res.statusCode).toBe(200);
    const list = res.json<Record<string, Array<{ policyNumber: string; policyActions: unknown }>>>();
    return [...list['active']!, ...list['renewing']!, ...list['upcoming']!, ...list['expired']!];
  };

  describe('a policy', () => {
    const url = `/integration/v1/policies/${POLICY}`;

    it('is created, then unchanged when the same version and content come again, then updated', async () => {
      const created = await put(url, policyRecord(1));
      expect(created.statusCode).toBe(200);
      expect(created.json()).toEqual({ type: 'policy', key: POLICY, status: 'created', version: 1 });

      const again = await put(url, policyRecord(1));
      expect(again.json()).toEqual({ type: 'policy', key: POLICY, status: 'unchanged', version: 1 });

      const updated = await put(url, policyRecord(2, { productName: 'Home Insurance Plus' }));
      expect(updated.json()).toEqual({ type: 'policy', key: POLICY, status: 'updated', version: 2 });
    });

    it('shows to the signed-in customer, with the action URL the insurer gave', async () => {
      const mine = (await margaretsPolicies()).find((p) => p.policyNumber === POLICY);
      expect(mine).toMatchObject({
        policyActions: { onlineMidTermAdjustment: { url: MTA_URL } },
        productName: 'Home Insurance Plus',
      });
      const one = await asMargaret(`/api/v1/policy/${MARGARET_ID}/${POLICY}`);
      expect(one.json()).toMatchObject({ linesOfBusiness: [{ type: 'Home', coverLevel: 'Standard' }] });
    });

    it('answers 409 STALE_VERSION for an older version and 409 VERSION_CONFLICT for the same with other content', async () => {
      const stale = await put(url, policyRecord(1, { productName: 'Old name' }));
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'STALE_VERSION', heldVersion: 2 });

      const conflict = await put(url, policyRecord(2, { productName: 'Another name' }));
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toMatchObject({ code: 'VERSION_CONFLICT', heldVersion: 2 });
      expect((await margaretsPolicies()).find((p) => p.policyNumber === POLICY)).toMatchObject({
        productName: 'Home Insurance Plus',
      });
    });

    it('uses the configured policy-system link when the insurer gives none', async () => {
      const res = await put(url, policyRecord(3, { actionUrls: null }));
      expect(res.json()).toMatchObject({ status: 'updated' });
      const mine = (await margaretsPolicies()).find((p) => p.policyNumber === POLICY);
      const link = (mine?.policyActions as { onlineMidTermAdjustment: { url: string } })
        .onlineMidTermAdjustment.url;
      expect(link).not.toBe(MTA_URL);
      expect(link).toContain('/mid-term-adjustment?policy=999X0000001');
    });

    it('leaves an audit row with the client id for every write', async () => {
      const { rows } = await t.db.query<{ event_id: string; on_behalf_of: string; client: string }>(
        `SELECT event_id, on_behalf_of, details->>'clientId' AS client FROM audit_event
          WHERE details->>'type' = 'policy' AND details->>'key' = $1 ORDER BY id`,
        [POLICY],
      );
      expect(rows.map((r) => r.event_id)).toEqual([
        'integration.policy.created',
        'integration.policy.updated',
        'integration.policy.updated',
      ]);
      expect(rows.every((r) => r.client === 'test-system' && r.on_behalf_of === 'client:test-system')).toBe(
        true,
      );
    });

    it('is removed so the customer no longer sees it, and an older upsert afterwards is 409', async () => {
      const removed = await remove(url, 4);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ type: 'policy', key: POLICY, status: 'removed', version: 4 });
      expect((await margaretsPolicies()).map((p) => p.policyNumber)).not.toContain(POLICY);
      expect((await asMargaret(`/api/v1/policy/${MARGARET_ID}/${POLICY}`)).statusCode).toBe(404);

      const late = await put(url, policyRecord(3, { actionUrls: null }));
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ code: 'STALE_VERSION', heldVersion: 4 });
      expect((await margaretsPolicies()).map((p) => p.policyNumber)).not.toContain(POLICY);
      expect(
        await count(
          `SELECT count(*) AS n FROM audit_event WHERE event_id = 'integration.policy.removed'
             AND details->>'key' = $1 AND on_behalf_of = 'client:test-system'`,
          [POLICY],
        ),
      ).toBe(1);
    });

    it('answers 422 naming customerId for a customer not held, writing nothing', async () => {
      const res = await put(
        '/integration/v1/policies/999X0000002',
        policyRecord(1, { customerId: 'C9999999' }),
      );
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'REFERENCE_NOT_HELD',
        fieldErrors: { customerId: expect.any(String) },
      });
      expect(res.json<{ message: string }>().message).toMatch(/load it first/);
      expect(await held('policy', '999X0000002')).toBeUndefined();
    });

    it('answers 422 naming agencyId for an agency not held', async () => {
      const res = await put('/integration/v1/policies/999X0000002', policyRecord(1, { agencyId: 'nowhere' }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ fieldErrors: { agencyId: expect.any(String) } });
    });

    it("answers 422 naming customerId for a policy held for another customer ('remove it first')", async () => {
      // 305X1122334 is one of the demo customers' policies (loaded by the demo seed), not Margaret's.
      const before = await held('policy', '305X1122334');
      expect(before).toMatchObject({ removed: false });
      const res = await put('/integration/v1/policies/305X1122334', policyRecord('2030-01-01T00:00:00Z'));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        fieldErrors: { customerId: expect.stringMatching(/remove it first/) },
      });
      expect(await held('policy', '305X1122334')).toEqual(before);
    });

    it('answers 400 naming the bad field, writing nothing', async () => {
      const noType = policyRecord(1, {
        linesOfBusiness: [{ coverLevel: null, risks: [], valuables: [], bicycles: [] }],
      });
      const res = await put('/integration/v1/policies/999X0000003', noType);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ fieldErrors: { 'linesOfBusiness.0.type': expect.any(String) } });

      const unknown = await put('/integration/v1/policies/999X0000003', policyRecord(1, { colour: 'blue' }));
      expect(unknown.statusCode).toBe(400);
      expect(JSON.stringify(unknown.json())).toContain('colour');

      const backwards = await put(
        '/integration/v1/policies/999X0000003',
        policyRecord(1, { startDate: '2026-06-01', renewalDate: '2026-05-31' }),
      );
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json()).toMatchObject({ fieldErrors: { renewalDate: expect.any(String) } });

      const twoPrimary = await put(
        '/integration/v1/policies/999X0000003',
        policyRecord(1, {
          policyHolders: [
            { name: 'A', primary: true },
            { name: 'B', primary: true },
          ],
        }),
      );
      expect(twoPrimary.statusCode).toBe(400);
      expect(twoPrimary.json()).toMatchObject({ fieldErrors: { policyHolders: expect.any(String) } });

      const httpLink = await put(
        '/integration/v1/policies/999X0000003',
        policyRecord(1, {
          actionUrls: {
            midTermAdjustment: 'http://insecure.example/x',
            viewRenewal: null,
            requestAChange: null,
          },
        }),
      );
      expect(httpLink.statusCode).toBe(400);
      expect(httpLink.json()).toMatchObject({
        fieldErrors: { 'actionUrls.midTermAdjustment': expect.any(String) },
      });

      expect(await held('policy', '999X0000003')).toBeUndefined();
      expect(await count('SELECT count(*) AS n FROM policy WHERE policy_number = $1', ['999X0000003'])).toBe(
        0,
      );
    });

    it('answers 403 to a client without the scope, and 401 without a token', async () => {
      const feedOnly = await clientToken(t.app, eventsOnlyClient, ['events.read']);
      const res = await put('/integration/v1/policies/999X0000004', policyRecord(1), feedOnly);
      expect(res.statusCode).toBe(403);
      const none = await t.app.inject({
        method: 'PUT',
        url: '/integration/v1/policies/999X0000004',
        payload: {},
      });
      expect(none.statusCode).toBe(401);
      expect(await held('policy', '999X0000004')).toBeUndefined();
    });
  });

  describe('a customer', () => {
    const id = 'C2000001';
    const url = `/integration/v1/customers/${id}`;

    it('is created, and a policy can then be loaded for them', async () => {
      const res = await put(url, customerRecord(1, { agencyId: 'ledbury' }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'created' });
      const policy = await put('/integration/v1/policies/999X0000005', policyRecord(1, { customerId: id }));
      expect(policy.json()).toMatchObject({ status: 'created' });
      expect(
        await count('SELECT count(*) AS n FROM customer_agency WHERE customer_id = $1 AND agency_id = $2', [
          id,
          'ledbury',
        ]),
      ).toBe(1);
      const audit = await count(
        `SELECT count(*) AS n FROM audit_event WHERE event_id = 'integration.customer.created'
           AND customer_id = $1 AND details->>'clientId' = 'test-system'`,
        [id],
      );
      expect(audit).toBe(1);
    });

    it('never writes the customer’s own portal preferences', async () => {
      await t.db.query(
        `INSERT INTO customer_preferences (customer_id, paperless, marketing_email) VALUES ($1, true, true)`,
        [id],
      );
      const res = await put(url, customerRecord(2, { firstName: 'Adelaide' }));
      expect(res.json()).toMatchObject({ status: 'updated' });
      const { rows } = await t.db.query<{ paperless: boolean; marketing_email: boolean; first_name: string }>(
        `SELECT p.paperless, p.marketing_email, c.first_name FROM customer_preferences p
           JOIN customer c USING (customer_id) WHERE customer_id = $1`,
        [id],
      );
      expect(rows[0]).toEqual({ paperless: true, marketing_email: true, first_name: 'Adelaide' });
    });

    it('answers 422 naming email when another customer has that address (in any case)', async () => {
      const res = await put(url, customerRecord(3, { email: 'MARGARET.THOMPSON@example.co.uk' }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ fieldErrors: { email: expect.any(String) } });
      expect(await held('customer', id)).toMatchObject({ version: 2 });
    });

    it('answers 422 naming agencyId for an agency not held', async () => {
      const res = await put(url, customerRecord(3, { agencyId: 'nowhere' }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'REFERENCE_NOT_HELD',
        fieldErrors: { agencyId: expect.any(String) },
      });
    });

    it('answers 400 naming dateOfBirth for an impossible or future date, writing nothing', async () => {
      for (const dateOfBirth of ['1980-02-30', '2030-01-01', '17/04/1952']) {
        const res = await put('/integration/v1/customers/C2000002', customerRecord(1, { dateOfBirth }));
        expect(res.statusCode, dateOfBirth).toBe(400);
        expect(res.json()).toMatchObject({ fieldErrors: { dateOfBirth: expect.any(String) } });
      }
      const phone = await put(
        '/integration/v1/customers/C2000002',
        customerRecord(1, { mobileNumber: '+44 7700' }),
      );
      expect(phone.json()).toMatchObject({ fieldErrors: { mobileNumber: expect.any(String) } });
      expect(await held('customer', 'C2000002')).toBeUndefined();
      expect(await count('SELECT count(*) AS n FROM customer WHERE customer_id = $1', ['C2000002'])).toBe(0);
    });
  });

  describe('an agency', () => {
    it('is created, and on removal its customers fall back to the direct line', async () => {
      const agency = {
        version: 1,
        name: 'Tewkesbury Agency',
        url: 'https://agents.meridianmutual.example/tewkesbury',
        telephoneNumber: '01684 290 300',
        address: '5 Church Street, Tewkesbury, GL20 5PA',
        latitude: 51.99,
        longitude: -2.16,
        isMutualDirect: false,
        telephonesOpen: null,
        telephonesClose: null,
      };
      expect((await put('/integration/v1/agencies/tewkesbury', agency)).json()).toMatchObject({
        status: 'created',
      });
      const customer = customerRecord(1, { agencyId: 'tewkesbury', email: null });
      expect((await put('/integration/v1/customers/C2000003', customer)).statusCode).toBe(200);
      expect(
        (
          await put(
            '/integration/v1/policies/999X0000006',
            policyRecord(1, { customerId: 'C2000003', agencyId: 'tewkesbury' }),
          )
        ).statusCode,
      ).toBe(200);

      const removed = await remove('/integration/v1/agencies/tewkesbury', 2);
      expect(removed.json()).toMatchObject({ status: 'removed' });
      expect(
        await count('SELECT count(*) AS n FROM customer_agency WHERE customer_id = $1', ['C2000003']),
      ).toBe(0);
      expect(
        await count('SELECT count(*) AS n FROM policy WHERE policy_number = $1 AND agency_id IS NULL', [
          '999X0000006',
        ]),
      ).toBe(1);
    });

    it('answers 422 when the direct line would be removed, or a second one loaded', async () => {
      const res = await remove('/integration/v1/agencies/mutual-direct', '2030-01-01T00:00:00Z');
      expect(res.statusCode).toBe(422);
      expect(await count('SELECT count(*) AS n FROM agency WHERE is_mutual_direct', [])).toBe(1);
      const second = await put('/integration/v1/agencies/second-direct', {
        version: 1,
        name: 'Another direct line',
        url: null,
        telephoneNumber: '0800 000 0000',
        address: 'Somewhere',
        latitude: 52,
        longitude: -1,
        isMutualDirect: true,
        telephonesOpen: '09:00',
        telephonesClose: '17:00',
      });
      expect(second.statusCode).toBe(422);
      expect(second.json()).toMatchObject({ fieldErrors: { isMutualDirect: expect.any(String) } });
    });
  });

  describe('a quote', () => {
    const url = '/integration/v1/quotes/999Q00000001';
    const quote = (version: number) => ({
      version,
      customerId: MARGARET_ID,
      productType: 'MPC',
      productName: 'Motor Insurance',
      startDate: '2026-12-01',
      premium: 523.1,
      onlineQuoteAndBuy: true,
      quoteAndBuyUrl: 'https://quotes.meridian.example/999Q00000001',
    });

    it('shows to the customer with its link, and is removed', async () => {
      expect((await put(url, quote(1))).json()).toMatchObject({ status: 'created' });
      const quotes = (await asMargaret(`/api/v1/quote/${MARGARET_ID}`)).json<
        Array<{ quoteNumber: string; quoteActions: { onlineQuoteAndBuy: { url: string } } }>
      >();
      expect(quotes.find((q) => q.quoteNumber === '999Q00000001')?.quoteActions.onlineQuoteAndBuy.url).toBe(
        'https://quotes.meridian.example/999Q00000001',
      );
      expect((await remove(url, 2)).json()).toMatchObject({ status: 'removed' });
      const after = (await asMargaret(`/api/v1/quote/${MARGARET_ID}`)).json<Array<{ quoteNumber: string }>>();
      expect(after.map((q) => q.quoteNumber)).not.toContain('999Q00000001');
    });

    it('answers 422 for a document whose file is not held, writing neither quote nor documents', async () => {
      const res = await put('/integration/v1/quotes/999Q00000003', {
        ...quote(1),
        documents: [
          {
            documentId: 'quote-999Q00000003-summary',
            name: 'Your quote',
            date: '2026-11-20',
            file: { sha256: 'c'.repeat(64), fileName: 'quote.pdf' },
          },
        ],
      });
      expect(res.statusCode).toBe(422);
      expect(await held('quote', '999Q00000003')).toBeUndefined();
      expect(await count('SELECT count(*) AS n FROM quote WHERE quote_number = $1', ['999Q00000003'])).toBe(
        0,
      );
    });

    it('answers 422 naming customerId for a customer not held', async () => {
      const res = await put('/integration/v1/quotes/999Q00000002', { ...quote(1), customerId: 'C9999998' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ fieldErrors: { customerId: expect.any(String) } });
    });
  });

  describe('a notification', () => {
    it('assigned to a customer shows in their notifications, NEW, and is withdrawn', async () => {
      const campaign = await put('/integration/v1/notifications/splash-spring', {
        version: 1,
        type: 'SPLASH',
        startsAt: '2026-11-01T00:00:00Z',
        endsAt: '2026-12-31T00:00:00Z',
      });
      expect(campaign.json()).toMatchObject({ status: 'created' });
      const assignUrl = `/integration/v1/customers/${MARGARET_ID}/notifications/splash-spring`;
      expect((await put(assignUrl, { version: 1 })).json()).toMatchObject({
        type: 'customerNotification',
        key: `${MARGARET_ID}/splash-spring`,
        status: 'created',
      });

      const list = async () =>
        (await asMargaret(`/api/v1/customers/${MARGARET_ID}/notifications`)).json<
          Array<{ id: string; notificationId: string; status: string; type: string }>
        >();
      const mine = (await list()).find((n) => n.notificationId === 'splash-spring');
      expect(mine).toMatchObject({ type: 'SPLASH', status: 'NEW' });

      // Seen, then a newer version of the assignment: not shown again.
      const shown = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/customers/${MARGARET_ID}/notifications/${mine!.id}/splash-spring`,
        headers: { authorization: margaret.authorization },
        payload: { status: 'SHOWN' },
      });
      expect(shown.statusCode).toBe(200);
      expect((await put(assignUrl, { version: 2 })).json()).toMatchObject({ status: 'updated' });
      expect((await list()).find((n) => n.notificationId === 'splash-spring')?.status).toBe('SHOWN');

      expect((await remove(assignUrl, 3)).json()).toMatchObject({ status: 'removed' });
      expect((await list()).map((n) => n.notificationId)).not.toContain('splash-spring');
    });

    it('answers 422 when the notification or the customer is not held', async () => {
      const noCampaign = await put(`/integration/v1/customers/${MARGARET_ID}/notifications/never-loaded`, {
        version: 1,
      });
      expect(noCampaign.statusCode).toBe(422);
      expect(noCampaign.json()).toMatchObject({ fieldErrors: { notificationId: expect.any(String) } });
      const noCustomer = await put('/integration/v1/customers/C9999997/notifications/splash-spring', {
        version: 1,
      });
      expect(noCustomer.statusCode).toBe(422);
      expect(noCustomer.json()).toMatchObject({ fieldErrors: { customerId: expect.any(String) } });
    });

    it('answers 400 naming endsAt when it is not after startsAt', async () => {
      const res = await put('/integration/v1/notifications/splash-bad', {
        version: 1,
        type: 'SPLASH',
        startsAt: '2026-12-01T00:00:00Z',
        endsAt: '2026-11-01T00:00:00Z',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ fieldErrors: { endsAt: expect.any(String) } });
    });

    it("removed, takes every customer's copy with it", async () => {
      const assignUrl = `/integration/v1/customers/${MARGARET_ID}/notifications/splash-spring`;
      expect((await put(assignUrl, { version: 4 })).statusCode).toBe(200);
      expect((await remove('/integration/v1/notifications/splash-spring', 2)).json()).toMatchObject({
        status: 'removed',
      });
      expect(
        await count('SELECT count(*) AS n FROM customer_notification WHERE notification_id = $1', [
          'splash-spring',
        ]),
      ).toBe(0);
    });
  });

  describe('a policy a billing account still names', () => {
    it("is removed: the account's statement and Direct Debit confirmation are still drawn, without it; its schedule is 404", async () => {
      const helen = await signIn(t, 'helen.dawson@example.co.uk');
      const docs = async (kind: string) =>
        (
          await t.db.query<{ document_id: string; policy_number: string | null; account_number: string }>(
            `SELECT document_id, policy_number, account_number FROM billing_document
             WHERE customer_id = $1 AND kind = $2 ORDER BY document_date DESC, document_id`,
            [helen.customerId, kind],
          )
        ).rows;
      const bill = (id: string) =>
        t.app.inject({
          method: 'GET',
          url: `/api/v1/document/billing/${helen.customerId}/${id}`,
          headers: { authorization: helen.authorization },
        });
      const gone = (await docs('payment_schedule'))[0]!;
      const statement = (await docs('statement')).find((d) => d.account_number === gone.account_number)!;
      const confirmation = (await docs('direct_debit_confirmation')).find(
        (d) => d.account_number === gone.account_number,
      )!;
      expect(await pdfText((await bill(statement.document_id)).rawPayload)).toContain(gone.policy_number);

      const removed = await remove(`/integration/v1/policies/${gone.policy_number}`, '2099-01-01T00:00:00Z');
      expect(removed.json()).toMatchObject({ status: 'removed' });

      const text = await pdfText((await bill(statement.document_id)).rawPayload);
      expect(text).toContain('Your payments this month');
      expect(text).not.toContain(gone.policy_number);
      expect((await bill(confirmation.document_id)).statusCode).toBe(200);
      expect((await bill(gone.document_id)).statusCode).toBe(404);
    });
  });
});
