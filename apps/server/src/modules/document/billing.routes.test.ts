import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { pdfText } from '../../../test/pdf-text';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { instalments } from './billing.service';

interface BillingPage {
  currentPage: number;
  lastPage: number;
  pageSize: number;
  totalRecords: number;
  data: Array<{
    accountNumber: string;
    documentSummaries: Array<{ id: string; name: string; date: string }>;
  }>;
}

describe('monthly instalments', () => {
  it('split the premium in pence, the rounding on the first', () => {
    expect(instalments(1200)).toEqual({ first: 100, rest: 100 });
    expect(instalments(412.5)).toEqual({ first: 34.43, rest: 34.37 });
  });
});

describe.each(databases())('billing documents on $name', ({ open }) => {
  let t: TestContext;
  let helen: SignedIn;
  let james: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    helen = await signIn(t, 'helen.dawson@example.co.uk');
    james = await signIn(t, 'james.carter@example.co.uk');
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const get = (who: SignedIn | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: who ? { authorization: who.authorization } : {} });

  it('pages over the documents newest first, grouped by billing account', async () => {
    const first = await get(helen, `/api/v1/document/billing/${helen.customerId}?pageSize=5`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const page = first.json<BillingPage>();
    expect(page).toMatchObject({ currentPage: 1, pageSize: 5 });
    expect(page.totalRecords).toBeGreaterThan(10);
    expect(page.lastPage).toBe(Math.ceil(page.totalRecords / 5));
    expect(page.data.flatMap((g) => g.documentSummaries)).toHaveLength(5);
    for (const group of page.data) {
      const dates = group.documentSummaries.map((d) => d.date);
      expect([...dates].sort().reverse()).toEqual(dates);
    }
    expect(page.data.every((g) => /^BA\d+$/.test(g.accountNumber))).toBe(true);

    const all: string[] = [];
    for (let n = 1; n <= page.lastPage; n++) {
      const p = (
        await get(helen, `/api/v1/document/billing/${helen.customerId}?page=${n}&pageSize=5`)
      ).json<BillingPage>();
      all.push(...p.data.flatMap((g) => g.documentSummaries.map((d) => d.id)));
    }
    expect(new Set(all).size).toBe(page.totalRecords);
    // A page past the end is empty and still says how many there are.
    const past = await get(
      helen,
      `/api/v1/document/billing/${helen.customerId}?page=${page.lastPage + 1}&pageSize=5`,
    );
    expect(past.json<BillingPage>()).toMatchObject({
      currentPage: page.lastPage + 1,
      totalRecords: page.totalRecords,
      data: [],
    });
    const accounts = new Set(
      (await get(helen, `/api/v1/document/billing/${helen.customerId}?pageSize=50`))
        .json<BillingPage>()
        .data.map((g) => g.accountNumber),
    );
    expect(accounts.size).toBe(2);
  });

  it('answers an empty first page for a customer with no bills', async () => {
    const page = (await get(james, `/api/v1/document/billing/${james.customerId}`)).json<BillingPage>();
    expect(page).toEqual({ currentPage: 1, lastPage: 1, pageSize: 10, totalRecords: 0, data: [] });
  });

  it('refuses bad page sizes (400), another customer (404) and no token (401)', async () => {
    for (const q of ['pageSize=0', 'pageSize=51', 'page=0', 'page=x']) {
      const res = await get(helen, `/api/v1/document/billing/${helen.customerId}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({ correlationId: expect.any(String) });
    }
    expect((await get(james, `/api/v1/document/billing/${helen.customerId}`)).statusCode).toBe(404);
    expect((await get(null, `/api/v1/document/billing/${helen.customerId}`)).statusCode).toBe(401);
  });

  it('serves each kind of bill as a PDF with the customer, account and amounts, to its customer only', async () => {
    const page = (
      await get(helen, `/api/v1/document/billing/${helen.customerId}?pageSize=50`)
    ).json<BillingPage>();
    const docs = page.data.flatMap((g) =>
      g.documentSummaries.map((d) => ({ ...d, account: g.accountNumber })),
    );
    const pick = (pattern: RegExp) => docs.find((d) => pattern.test(d.name))!;
    for (const [doc, expected] of [
      [pick(/^Statement for /), /Your payments this month .*Total/],
      [pick(/^Payment schedule/), /Your instalments/],
      [pick(/^Direct Debit confirmation/), /Direct Debit Guarantee/],
      [pick(/^Your bill for/), /Amount due/],
    ] as const) {
      const res = await get(helen, `/api/v1/document/billing/${helen.customerId}/${doc.id}`);
      expect(res.statusCode, doc.name).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toContain(`${doc.account}.pdf`);
      const text = await pdfText(res.rawPayload);
      expect(text).toContain('Helen Dawson');
      expect(text).toContain(`Billing account ${doc.account}`);
      expect(text).toMatch(expected);
    }
    const someone = docs[0]!;
    expect((await get(james, `/api/v1/document/billing/${james.customerId}/${someone.id}`)).statusCode).toBe(
      404,
    );
    expect((await get(helen, `/api/v1/document/billing/${helen.customerId}/no-such-bill`)).statusCode).toBe(
      404,
    );
    expect((await get(helen, `/api/v1/document/billing/${helen.customerId}/bad%20id`)).statusCode).toBe(400);
  });
});
