import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';

interface Summary {
  id: string;
  name: string;
  date: string;
  isNew?: boolean;
}
interface BillingPage {
  data: Array<{ accountNumber: string; documentSummaries: Summary[] }>;
}
interface PackPage {
  data: Array<{ title: string; documentSummaries: Summary[] }>;
}

/*
 * "New since your last visit" (issue 40 point 5): a document the customer has not opened is New in the
 * lists; opening it (its PDF) clears that for every device the customer uses, and for nobody else.
 */
describe.each(databases())('documents not opened yet on $name', ({ open }) => {
  let t: TestContext;
  let helen: SignedIn;
  let helenElsewhere: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    helen = await signIn(t, 'helen.dawson@example.co.uk');
    // A second sign-in of hers: another device.
    helenElsewhere = await signIn(t, 'helen.dawson@example.co.uk');
    // Nothing of hers opened yet. (On PostgreSQL the test files share one database: other files open her
    // documents as they run, so only what this file opens is checked.)
    await t.db.query('DELETE FROM document_seen WHERE customer_id = $1', [helen.customerId]);
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const get = (who: SignedIn, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: who.authorization } });
  const bills = async (who: SignedIn) =>
    (await get(who, `/api/v1/document/billing/${who.customerId}?pageSize=50`))
      .json<BillingPage>()
      .data.flatMap((g) => g.documentSummaries);

  it('says which bills are new, and a bill opened is not, on every device', async () => {
    const before = await bills(helen);
    expect(before.every((d) => typeof d.isNew === 'boolean')).toBe(true);
    const fresh = before.filter((d) => d.isNew);
    expect(fresh.length).toBeGreaterThan(0);
    const opened = fresh[0]!;

    // The menu's count says as much; another customer's count is not hers to read.
    const counts = async () =>
      (await get(helenElsewhere, `/api/v1/document/new/${helen.customerId}`)).json<{
        bills: number;
        policyDocuments: number;
        byPolicy: Record<string, number>;
      }>();
    const countedBefore = await counts();
    expect(countedBefore.bills).toBeGreaterThanOrEqual(fresh.length);
    // Her policies' new documents, by policy: they add up.
    expect(Object.values(countedBefore.byPolicy).reduce((a, b) => a + b, 0)).toBe(
      countedBefore.policyDocuments,
    );
    expect(countedBefore.policyDocuments).toBeGreaterThan(0);
    expect((await get(helen, '/api/v1/document/new/C1000001')).statusCode).toBe(404);

    const pdf = await get(helen, `/api/v1/document/billing/${helen.customerId}/${opened.id}`);
    expect(pdf.statusCode).toBe(200);
    expect((await counts()).bills).toBeLessThan(countedBefore.bills);
    const after = await bills(helenElsewhere);
    expect(after.find((d) => d.id === opened.id)?.isNew).toBe(false);
    expect(after.map((d) => d.id)).toEqual(before.map((d) => d.id));
    // Opening it again changes nothing.
    expect((await get(helen, `/api/v1/document/billing/${helen.customerId}/${opened.id}`)).statusCode).toBe(
      200,
    );
    expect((await bills(helen)).find((d) => d.id === opened.id)?.isNew).toBe(false);
  });

  it('does the same for policy documents, and a refused open marks nothing', async () => {
    type Group = Array<{ policyNumber: string }>;
    const list = (await get(helen, `/api/v1/policy/${helen.customerId}`)).json<Record<string, Group>>();
    const policies = ['active', 'renewing', 'upcoming', 'expired'].flatMap((group) => list[group] ?? []);
    const packsOf = async (policyNumber: string) =>
      (await get(helen, `/api/v1/document/policy/${helen.customerId}/${policyNumber}?pageSize=20`))
        .json<PackPage>()
        .data.flatMap((p) => p.documentSummaries);
    let found: { policyNumber: string; doc: Summary } | undefined;
    for (const { policyNumber } of policies) {
      const doc = (await packsOf(policyNumber)).find((d) => d.isNew);
      if (doc) {
        found = { policyNumber, doc };
        break;
      }
    }
    expect(found).toBeDefined();
    const { policyNumber, doc } = found!;
    // Another document id under her policy: 404, and nothing recorded.
    const missing = await get(
      helen,
      `/api/v1/document/policy/${helen.customerId}/${policyNumber}/NO-SUCH-DOC`,
    );
    expect(missing.statusCode).toBe(404);
    expect(
      (await get(helen, `/api/v1/document/policy/${helen.customerId}/${policyNumber}/${doc.id}`)).statusCode,
    ).toBe(200);
    expect((await packsOf(policyNumber)).find((d) => d.id === doc.id)?.isNew).toBe(false);
  });
});
