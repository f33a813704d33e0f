import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { bearer, clientToken, eventsOnlyClient, integrationEnv } from '../../../test/integration-client';
import { signIn, type SignedIn } from '../../../test/sign-in';

const MAX = 4096;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A PDF-looking file of `size` bytes, different every time. */
const pdf = (size = 600) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);

interface BillingPage {
  data: Array<{ accountNumber: string; documentSummaries: Array<{ id: string; name: string }> }>;
}
interface PackPage {
  data: Array<{ title: string; documentSummaries: Array<{ id: string; name: string }> }>;
}

describe('integration documents: files, packs, billing', () => {
  let t: TestContext;
  let token: string;
  let james: SignedIn;
  let helen: SignedIn;
  /** One of Helen's demo policies. */
  let helensPolicy: string;

  beforeAll(async () => {
    t = await createTestApp({ ...integrationEnv(), INTEGRATION_MAX_FILE_BYTES: String(MAX) });
    token = await clientToken(t.app);
    james = await signIn(t, 'james.carter@example.co.uk');
    helen = await signIn(t, 'helen.dawson@example.co.uk');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/policy/${helen.customerId}`,
      headers: { authorization: helen.authorization },
    });
    helensPolicy = JSON.stringify(list.json()).match(/"policyNumber":"([^"]+)"/)![1]!;
  });
  afterAll(() => t.close());

  const upload = (body: Buffer | string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/integration/v1/files',
      headers: { ...bearer(token), 'content-type': 'application/pdf', ...headers },
      payload: body,
    });
  const put = (url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, headers: bearer(token), payload });
  const remove = (url: string, version: number) =>
    t.app.inject({ method: 'DELETE', url: `${url}?version=${version}`, headers: bearer(token) });
  const get = (who: SignedIn, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: who.authorization } });
  const billingDoc = (sha: string, version = 1) => ({
    version,
    kind: 'statement',
    name: 'Statement for November 2026',
    date: '2026-11-01',
    policyNumber: null,
    file: { sha256: sha, fileName: 'Statement November 2026.pdf' },
  });

  it('stores an upload once: 201 with its sha256, then 200 for the same bytes', async () => {
    const bytes = pdf();
    const first = await upload(bytes);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ sha256: sha256(bytes), size: bytes.length });
    const again = await upload(bytes);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ sha256: sha256(bytes), size: bytes.length });
  });

  it('refuses a file one byte over the limit (413) and stores nothing', async () => {
    const atLimit = await upload(pdf(MAX));
    expect(atLimit.statusCode).toBe(201);
    const over = pdf(MAX + 1);
    const res = await upload(over);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // Sent in chunks without a Content-Length: refused as the bytes pass the limit.
    const chunked = await t.app.inject({
      method: 'POST',
      url: '/integration/v1/files',
      headers: { ...bearer(token), 'content-type': 'application/pdf' },
      payload: Readable.from([over.subarray(0, 1000), over.subarray(1000)]),
    });
    expect(chunked.statusCode).toBe(413);
    await put('/integration/v1/billing-accounts/BA99000001', {
      version: 1,
      customerId: james.customerId,
      paymentMethod: 'Annual',
      collectionDay: null,
      bankAccountEnding: null,
      policyNumbers: [],
    });
    const ref = await put(
      '/integration/v1/billing-accounts/BA99000001/documents/over-limit',
      billingDoc(sha256(over)),
    );
    expect(ref.statusCode).toBe(422);
  });

  it('refuses what is not a PDF (415 NOT_A_PDF), another content type (415) and an empty body (400)', async () => {
    const hello = await upload('hello');
    expect(hello.statusCode).toBe(415);
    expect(hello.json()).toMatchObject({ code: 'NOT_A_PDF' });
    const json = await upload(JSON.stringify({ a: 1 }), { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(415);
    const text = await upload('%PDF-1.7', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    const empty = await upload('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'EMPTY_FILE' });
    // Nothing of "hello" was stored: a document referring to it is refused.
    await put('/integration/v1/billing-accounts/BA99000002', {
      version: 1,
      customerId: james.customerId,
      paymentMethod: 'Annual',
      collectionDay: null,
      bankAccountEnding: null,
      policyNumbers: [],
    });
    const ref = await put(
      '/integration/v1/billing-accounts/BA99000002/documents/hello',
      billingDoc(sha256(Buffer.from('hello'))),
    );
    expect(ref.statusCode).toBe(422);
    expect(ref.json()).toMatchObject({
      code: 'REFERENCE_NOT_HELD',
      fieldErrors: { 'file.sha256': expect.any(String) },
    });
  });

  it('needs a client token (401) with the documents.write scope (403)', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/integration/v1/files',
      headers: { 'content-type': 'application/pdf' },
      payload: pdf(),
    });
    expect(none.statusCode).toBe(401);
    const reader = await clientToken(t.app, eventsOnlyClient, ['events.read']);
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/integration/v1/files',
      headers: { ...bearer(reader), 'content-type': 'application/pdf' },
      payload: pdf(),
    });
    expect(forbidden.statusCode).toBe(403);
    const customer = await upload(pdf(), { authorization: james.authorization });
    expect(customer.statusCode).toBe(401);
  });

  it('a billing account and document with an uploaded file: the customer lists it and downloads those bytes', async () => {
    const bytes = pdf(2000);
    expect((await upload(bytes)).statusCode).toBe(201);
    const account = await put('/integration/v1/billing-accounts/BA10000069', {
      version: 1,
      customerId: james.customerId,
      paymentMethod: 'DirectDebit',
      collectionDay: 12,
      bankAccountEnding: '42',
      policyNumbers: [],
    });
    expect(account.statusCode).toBe(200);
    expect(account.json()).toMatchObject({ type: 'billingAccount', key: 'BA10000069', status: 'created' });
    const doc = await put(
      '/integration/v1/billing-accounts/BA10000069/documents/st-2026-11',
      billingDoc(sha256(bytes)),
    );
    expect(doc.statusCode).toBe(200);
    expect(doc.json()).toMatchObject({ status: 'created', key: 'BA10000069/st-2026-11' });

    const list = await get(james, `/api/v1/document/billing/${james.customerId}`);
    const group = list.json<BillingPage>().data.find((g) => g.accountNumber === 'BA10000069');
    expect(group?.documentSummaries).toEqual([
      // Just loaded: New to James until he opens it (issue 40).
      { id: 'st-2026-11', name: 'Statement for November 2026', date: '2026-11-01', isNew: true },
    ]);
    const file = await get(james, `/api/v1/document/billing/${james.customerId}/st-2026-11`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['cache-control']).toBe('private, no-cache');
    expect(file.headers['etag']).toBe(`"${sha256(bytes)}"`);
    expect(file.headers['content-disposition']).toContain('filename="Statement November 2026.pdf"');
    expect(file.rawPayload.equals(bytes)).toBe(true);
    // The browser holding it is told it has not changed, without the file being sent again.
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/v1/document/billing/${james.customerId}/st-2026-11`,
      headers: { authorization: james.authorization, 'if-none-match': `"${sha256(bytes)}"` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload).toHaveLength(0);
    // Not another customer's.
    const other = await get(helen, `/api/v1/document/billing/${helen.customerId}/st-2026-11`);
    expect(other.statusCode).toBe(404);
  });

  it('refuses records referring to what is not held (422 naming the field)', async () => {
    const missing = 'a'.repeat(64);
    const pack = await put(`/integration/v1/policies/${helensPolicy}/document-packs/p-missing`, {
      version: 1,
      title: 'Mid-term change',
      createdAt: '2026-11-20T09:00:00Z',
      documents: [
        {
          documentId: 'p-missing-1',
          kind: 'schedule',
          name: 'Schedule',
          date: '2026-11-20',
          file: { sha256: missing, fileName: 'Schedule.pdf' },
        },
      ],
    });
    expect(pack.statusCode).toBe(422);
    expect(pack.json()).toMatchObject({
      code: 'REFERENCE_NOT_HELD',
      fieldErrors: { 'documents.0.file.sha256': expect.any(String) },
    });
    const noPolicy = await put('/integration/v1/policies/999X9999999/document-packs/p1', {
      version: 1,
      title: 'x',
      createdAt: '2026-11-20T09:00:00Z',
      documents: [],
    });
    expect(noPolicy.statusCode).toBe(422);
    expect(noPolicy.json()).toMatchObject({ fieldErrors: { policyNumber: expect.any(String) } });
    const noCustomer = await put('/integration/v1/billing-accounts/BA77777777', {
      version: 1,
      customerId: 'C9999999',
      paymentMethod: 'Annual',
      collectionDay: null,
      bankAccountEnding: null,
      policyNumbers: [],
    });
    expect(noCustomer.statusCode).toBe(422);
    expect(noCustomer.json()).toMatchObject({ fieldErrors: { customerId: expect.any(String) } });
    const noAccount = await put(
      '/integration/v1/billing-accounts/BA77777777/documents/d1',
      billingDoc(missing),
    );
    expect(noAccount.statusCode).toBe(422);
    expect(noAccount.json()).toMatchObject({ fieldErrors: { accountNumber: expect.any(String) } });
    // A file is required on the API (only the demo seed loads documents without one).
    const noFile = await put('/integration/v1/billing-accounts/BA10000069/documents/d2', {
      ...billingDoc(missing),
      file: null,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ fieldErrors: { file: expect.any(String) } });
    // A file name is a name, not a path.
    const slashed = await put('/integration/v1/billing-accounts/BA10000069/documents/d3', {
      ...billingDoc(missing),
      file: { sha256: missing, fileName: '../statement.pdf' },
    });
    expect(slashed.statusCode).toBe(400);
    expect(slashed.json()).toMatchObject({ fieldErrors: { 'file.fileName': expect.any(String) } });
  });

  it('a policy pack with a shared insert: shown and downloaded exactly; removed, it goes, and so does a file no longer referred to', async () => {
    const schedule = pdf(1500);
    const leaflet = pdf(1200);
    for (const f of [schedule, leaflet]) expect((await upload(f)).statusCode).toBe(201);
    const packUrl = (id: string) => `/integration/v1/policies/${helensPolicy}/document-packs/${id}`;
    const packOf = (id: string, documents: object[]) => ({
      version: '2026-11-20T09:00:00Z',
      title: `Mid-term change ${id}`,
      createdAt: '2030-01-01T09:00:00Z',
      documents,
    });
    const insert = (id: string) => ({
      documentId: id,
      kind: 'insert',
      name: 'Important information',
      date: '2026-11-20',
      file: { sha256: sha256(leaflet), fileName: 'Important information.pdf' },
    });
    const first = await put(
      packUrl('mta-1'),
      packOf('mta-1', [
        {
          documentId: 'mta-1-schedule',
          kind: 'schedule',
          name: 'Policy schedule',
          date: '2026-11-20',
          file: { sha256: sha256(schedule), fileName: 'Schedule – änderung' },
        },
        insert('mta-1-insert'),
      ]),
    );
    expect(first.statusCode).toBe(200);
    expect((await put(packUrl('mta-2'), packOf('mta-2', [insert('mta-2-insert')]))).statusCode).toBe(200);

    const packs = await get(helen, `/api/v1/document/policy/${helen.customerId}/${helensPolicy}?pageSize=50`);
    const titles = packs.json<PackPage>().data.map((p) => p.title);
    expect(titles).toEqual(expect.arrayContaining(['Mid-term change mta-1', 'Mid-term change mta-2']));
    const pdfUrl = (doc: string) => `/api/v1/document/policy/${helen.customerId}/${helensPolicy}/${doc}`;
    const got = await get(helen, pdfUrl('mta-1-schedule'));
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(schedule)).toBe(true);
    // The name as sent, made a safe PDF name.
    expect(got.headers['content-disposition']).toContain('filename="Schedule-anderung.pdf"');
    expect((await get(helen, pdfUrl('mta-2-insert'))).rawPayload.equals(leaflet)).toBe(true);

    const removed = await remove(packUrl('mta-1'), 1_900_000_000_000);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ status: 'removed' });
    const after = await get(helen, `/api/v1/document/policy/${helen.customerId}/${helensPolicy}?pageSize=50`);
    expect(after.json<PackPage>().data.map((p) => p.title)).not.toContain('Mid-term change mta-1');
    expect((await get(helen, pdfUrl('mta-1-schedule'))).statusCode).toBe(404);
    // The schedule was that pack's alone: it went with it. The leaflet is still in the other pack.
    expect((await upload(schedule)).statusCode).toBe(201);
    expect((await upload(leaflet)).statusCode).toBe(200);
    expect((await get(helen, pdfUrl('mta-2-insert'))).rawPayload.equals(leaflet)).toBe(true);
  });

  it('releases a file when a new version of the record no longer refers to it', async () => {
    const before = pdf(900);
    const next = pdf(901);
    for (const f of [before, next]) expect((await upload(f)).statusCode).toBe(201);
    const url = '/integration/v1/billing-accounts/BA10000069/documents/replaced';
    expect((await put(url, billingDoc(sha256(before), 1))).statusCode).toBe(200);
    expect((await put(url, billingDoc(sha256(next), 2))).statusCode).toBe(200);
    expect((await upload(before)).statusCode).toBe(201);
    expect((await upload(next)).statusCode).toBe(200);
    const got = await get(james, `/api/v1/document/billing/${james.customerId}/replaced`);
    expect(got.rawPayload.equals(next)).toBe(true);
  });

  it('the demo documents still have no file: their PDFs are drawn', async () => {
    const list = await get(helen, `/api/v1/document/billing/${helen.customerId}?pageSize=1`);
    const id = list.json<BillingPage>().data[0]!.documentSummaries[0]!.id;
    const drawn = await get(helen, `/api/v1/document/billing/${helen.customerId}/${id}`);
    expect(drawn.statusCode).toBe(200);
    expect(drawn.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
