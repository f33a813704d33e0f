import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';

const MARGARET = 'margaret.thompson@example.co.uk';
const DAVID = 'david.okafor@example.co.uk';
const HELEN = 'helen.dawson@example.co.uk';
const JAMES = 'james.carter@example.co.uk';

describe.each(databases())('policy service on $name', ({ open }) => {
  let t: TestContext;
  let margaret: SignedIn;
  let david: SignedIn;
  let helen: SignedIn;
  let james: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    margaret = await signIn(t, MARGARET);
    david = await signIn(t, DAVID);
    helen = await signIn(t, HELEN);
    james = await signIn(t, JAMES);
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const get = (who: SignedIn | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: who ? { authorization: who.authorization } : {} });

  it("lists the customer's policies grouped by status, with the fields of spec section 3", async () => {
    const res = await get(helen, `/api/v1/policy/${helen.customerId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = res.json();
    expect(list.active.map((p: { policyNumber: string }) => p.policyNumber).sort()).toEqual([
      '708Q10000002',
      '708X1000001',
      '708X1000003',
      '708X1000004',
      '708X1000005',
    ]);
    expect(list.renewing.map((p: { policyNumber: string }) => p.policyNumber)).toEqual(['708Q10000006']);
    expect(list.upcoming.map((p: { policyNumber: string }) => p.policyNumber)).toEqual(['708X1000007']);
    expect(list.expired).toHaveLength(2);
    expect(list).toMatchObject({ currentPage: 1, lastPage: 1, totalRecords: 9 });
    const motor = list.active.find((p: { productType: string }) => p.productType === 'MPC');
    expect(motor).toMatchObject({
      vehicleReg: ['LR70 DAW', 'WV21 HKD', 'SY68 PQR'],
      lineOfBusinessTypes: ['Motor'],
      policyHolders: [{ name: 'Mrs Helen Dawson', primary: true }],
      annualPremium: { visible: true, value: 640.25 },
      allowMTA: true,
    });
    expect(motor.policyActions.onlineMidTermAdjustment.url).toMatch(
      /\/policy-system\/mid-term-adjustment\?policy=708Q10000002$/,
    );
    expect(motor).not.toHaveProperty('linesOfBusiness');
  });

  it('answers an empty list for a customer with no policies, and a page past the end', async () => {
    const none = await get(james, `/api/v1/policy/${james.customerId}`);
    expect(none.json()).toEqual({
      active: [],
      renewing: [],
      upcoming: [],
      expired: [],
      currentPage: 1,
      lastPage: 1,
      totalRecords: 0,
    });
    const past = await get(helen, `/api/v1/policy/${helen.customerId}?page=3`);
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ active: [], currentPage: 3, totalRecords: 9 });
  });

  it('answers one policy with its lines of business, risks, covers, valuables and bicycles', async () => {
    const res = await get(margaret, `/api/v1/policy/${margaret.customerId}/102X4567891`);
    expect(res.statusCode).toBe(200);
    const policy = res.json();
    expect(policy.lineOfBusinessTypes).toEqual(['Valuables', 'Home']);
    const [valuables, home] = policy.linesOfBusiness;
    expect(valuables.valuables).toHaveLength(23);
    expect(home.risks.map((r: { displayName: string }) => r.displayName)).toEqual(['Buildings', 'Contents']);
    expect(home.bicycles).toHaveLength(2);
    expect(policy.policyHolders).toEqual([
      { name: 'Mrs Margaret Thompson', primary: true },
      { name: 'Mr Geoffrey Thompson', primary: false },
    ]);

    const renewal = (await get(margaret, `/api/v1/policy/${margaret.customerId}/102Q45678913`)).json();
    expect(renewal.status).toBe('RenewalCustomerReady');
    expect(renewal.policyActions.onlineViewRenewal).toEqual({
      enabled: true,
      url: expect.stringMatching(/\/policy-system\/view-renewal\?policy=102Q45678913$/),
    });

    const migration = (await get(david, `/api/v1/policy/${david.customerId}/204X7654321`)).json();
    expect(migration).toMatchObject({ isMigrationRenewal: true, allowMTA: false, status: 'Renewing' });
    expect(migration.policyActions.onlineMidTermAdjustment.url).toBeNull();
    expect(migration.policyActions.onlineViewRenewal).toEqual({ enabled: false, url: null });

    // An ended policy offers no online change, though its flag allows one.
    const ended = (await get(david, `/api/v1/policy/${david.customerId}/204X7654300`)).json();
    expect(ended).toMatchObject({ status: 'Expired', allowMTA: true });
    expect(ended.policyActions.onlineMidTermAdjustment.url).toBeNull();

    const fineArt = (await get(david, `/api/v1/policy/${david.customerId}/204P76543210`)).json();
    expect(fineArt.annualPremium).toEqual({ visible: true, value: 0 });
    expect(fineArt.linesOfBusiness[0].valuables.map((v: { artType: string | null }) => v.artType)).toContain(
      'NTSK',
    );
  });

  it("answers 404 for another customer's policy or customer id, whatever the token", async () => {
    const others = await get(david, `/api/v1/policy/${david.customerId}/102X4567891`);
    expect(others.statusCode).toBe(404);
    expect(others.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(others.body).not.toContain('Margaret');
    expect((await get(david, `/api/v1/policy/${margaret.customerId}`)).statusCode).toBe(404);
    expect((await get(david, `/api/v1/policy/${margaret.customerId}/102X4567891`)).statusCode).toBe(404);
    expect((await get(david, `/api/v1/quote/${margaret.customerId}`)).statusCode).toBe(404);
    expect((await get(david, `/api/v1/agency/${margaret.customerId}`)).statusCode).toBe(404);
    expect((await get(david, `/api/v1/agency/${margaret.customerId}/102X4567891`)).statusCode).toBe(404);
    expect((await get(helen, `/api/v1/policy/${helen.customerId}/999X0000000`)).statusCode).toBe(404);
  });

  it('answers 401 without a token and 400 for malformed ids and pages', async () => {
    expect((await get(null, `/api/v1/policy/${helen.customerId}`)).statusCode).toBe(401);
    const badPolicy = await get(helen, `/api/v1/policy/${helen.customerId}/not-a-policy`);
    expect(badPolicy.statusCode).toBe(400);
    expect(badPolicy.json()).toMatchObject({
      code: 'BAD_REQUEST',
      fieldErrors: { policyId: expect.any(String) },
    });
    for (const page of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const res = await get(helen, `/api/v1/policy/${helen.customerId}?page=${page}`);
      expect(res.statusCode, page).toBe(400);
    }
  });

  it('answers quotes with their documents and the online quote-and-buy flag', async () => {
    const quotes = (await get(helen, `/api/v1/quote/${helen.customerId}`)).json();
    expect(quotes.map((q: { quoteNumber: string }) => q.quoteNumber)).toEqual([
      '708Q90000004',
      '708Q90000003',
    ]);
    const [offline, online] = quotes;
    expect(offline.quoteActions.onlineQuoteAndBuy).toEqual({ enabled: false, url: null });
    expect(online.quoteActions.onlineQuoteAndBuy.url).toMatch(
      /\/policy-system\/quote-and-buy\?quote=708Q90000003$/,
    );
    expect(online.documents.documentSummaries).toEqual([{ id: expect.any(String), name: 'Quote summary' }]);
    expect((await get(james, `/api/v1/quote/${james.customerId}`)).json()).toEqual([]);
  });

  it('answers agencies: own, with fallback to the direct line, per policy, and the direct line', async () => {
    const own = await get(margaret, `/api/v1/agency/${margaret.customerId}`);
    expect(own.json()).toMatchObject({ name: 'Ledbury and Malvern Agency', latitude: 52.0357 });
    expect((await get(david, `/api/v1/agency/${david.customerId}`)).statusCode).toBe(404);
    const fallback = (await get(david, `/api/v1/agency/${david.customerId}/fallback`)).json();
    expect(fallback).toMatchObject({
      name: 'Meridian Mutual Direct',
      mutualDirectTelephonesOpen: '08:00',
      mutualDirectTelephonesClose: '20:00',
    });
    const perPolicy = await get(margaret, `/api/v1/agency/${margaret.customerId}/102X4567891`);
    expect(perPolicy.json().name).toBe('Ledbury and Malvern Agency');
    expect((await get(margaret, `/api/v1/agency/${margaret.customerId}/102Q45678912`)).statusCode).toBe(404);
    const direct = await get(null, '/api/v1/agency/mutual-direct');
    expect(direct.statusCode).toBe(200);
    expect(direct.json().name).toBe('Meridian Mutual Direct');
  });
});

describe('the policy system stand-in', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('says which action and policy the customer would continue with', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/policy-system/view-renewal?policy=102Q45678913' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<h1>View your renewal</h1>');
    expect(res.body).toContain('102Q45678913');
    const bad = await t.app.inject({ method: 'GET', url: '/policy-system/view-renewal?policy=<script>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toContain('<script>');
    expect(
      (await t.app.inject({ method: 'GET', url: '/policy-system/nowhere?policy=102Q45678913' })).statusCode,
    ).toBe(404);
  });

  it('is not mounted when a policy system is configured, and links lead there', async () => {
    const real = await createTestApp({ POLICY_SYSTEM_URL: 'https://policies.example.co.uk/portal' });
    try {
      const res = await real.app.inject({
        method: 'GET',
        url: '/policy-system/view-renewal?policy=102Q45678913',
      });
      expect(res.headers['content-type']).not.toMatch(/^text\/html.*stand-in/);
      expect(res.body).not.toContain('View your renewal');
      const who = await signIn(real, MARGARET);
      const policy = await real.app.inject({
        method: 'GET',
        url: `/api/v1/policy/${who.customerId}/102Q45678913`,
        headers: { authorization: who.authorization },
      });
      expect(policy.json().policyActions.onlineViewRenewal.url).toBe(
        'https://policies.example.co.uk/portal/view-renewal?policy=102Q45678913',
      );
    } finally {
      await real.close();
    }
  });
});
