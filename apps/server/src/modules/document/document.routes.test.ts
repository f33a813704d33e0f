import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';

const standardFontDataUrl = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

/** The text of every page of a PDF, read with Mozilla's PDF reader. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    standardFontDataUrl,
    // Text is all this reads: no warnings about glyph data it does not need.
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join('\n');
}

describe.each(databases())('document service on $name', ({ open }) => {
  let t: TestContext;
  let margaret: SignedIn;
  let david: SignedIn;
  let helen: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    david = await signIn(t, 'david.okafor@example.co.uk');
    helen = await signIn(t, 'helen.dawson@example.co.uk');
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const get = (who: SignedIn | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: who ? { authorization: who.authorization } : {} });

  it("lists a policy's document packs, newest first, one page at a time", async () => {
    const res = await get(margaret, `/api/v1/document/policy/${margaret.customerId}/102Q45678913`);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ currentPage: 1, lastPage: 1, pageSize: 10, totalRecords: 3 });
    expect(page.data.map((p: { title: string }) => p.title)).toEqual([
      'Your renewal documents',
      'Policy wording and product information',
      'Your policy documents',
    ]);
    const motor = (await get(margaret, `/api/v1/document/policy/${margaret.customerId}/102Q45678912`)).json();
    const names = motor.data.flatMap((p: { documentSummaries: Array<{ name: string }> }) =>
      p.documentSummaries.map((d) => d.name),
    );
    expect(names).toContain('Certificate of motor insurance');
    const second = (
      await get(margaret, `/api/v1/document/policy/${margaret.customerId}/102Q45678913?page=2&pageSize=2`)
    ).json();
    expect(second).toMatchObject({ currentPage: 2, lastPage: 2, pageSize: 2, totalRecords: 3 });
    expect(second.data).toHaveLength(1);
  });

  it('refuses page sizes out of range and malformed ids with 400, other customers with 404', async () => {
    for (const q of ['pageSize=0', 'pageSize=51', 'page=0', 'pageSize=abc']) {
      const res = await get(margaret, `/api/v1/document/policy/${margaret.customerId}/102X4567891?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await get(margaret, `/api/v1/document/policy/${margaret.customerId}/nope`)).statusCode).toBe(400);
    expect((await get(david, `/api/v1/document/policy/${david.customerId}/102X4567891`)).statusCode).toBe(
      404,
    );
    expect((await get(david, `/api/v1/document/policy/${margaret.customerId}/102X4567891`)).statusCode).toBe(
      404,
    );
    expect(
      (await get(david, `/api/v1/document/policy/${david.customerId}/204X7654321/102X4567891-schedule`))
        .statusCode,
    ).toBe(404);
    expect((await get(null, `/api/v1/document/policy/${margaret.customerId}/102X4567891`)).statusCode).toBe(
      401,
    );
  });

  it('answers a real schedule PDF with the customer, policy number, cover, dates and premium', async () => {
    const res = await get(
      margaret,
      `/api/v1/document/policy/${margaret.customerId}/102X4567891/102X4567891-schedule`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Policy schedule 102X4567891.pdf"; filename*=UTF-8''Policy%20schedule%20102X4567891.pdf`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Margaret Thompson',
      'Bluebell Cottage',
      'HR8 2AB',
      '102X4567891',
      'Buildings',
      '£612.40',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/Period of cover:\s*\d{1,2} \w+ \d{4} to \d{1,2} \w+ \d{4}/);
  });

  it('answers the motor certificate with the vehicles, and the statement of fact', async () => {
    const cert = await get(
      margaret,
      `/api/v1/document/policy/${margaret.customerId}/102Q45678912/102Q45678912-certificate`,
    );
    const text = await pdfText(cert.rawPayload);
    expect(text).toContain('Certificate of motor insurance');
    expect(text).toContain('AB12 CDE');
    expect(text).toContain('KX19 LMN');
    const sof = await get(
      helen,
      `/api/v1/document/policy/${helen.customerId}/708X1000003/708X1000003-statement-of-fact`,
    );
    expect(await pdfText(sof.rawPayload)).toContain('708X1000003');
  });

  it('answers a quote summary PDF named by the title asked for', async () => {
    const res = await get(
      helen,
      `/api/v1/document/quote/${helen.customerId}/708Q90000003/708Q90000003-summary/Quote%20summary%20708Q90000003`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="Quote summary 708Q90000003.pdf"');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('708Q90000003');
    expect(text).toContain('£689.40');
    const others = await get(
      margaret,
      `/api/v1/document/quote/${margaret.customerId}/708Q90000003/708Q90000003-summary/x`,
    );
    expect(others.statusCode).toBe(404);
  });

  it('answers many downloads at once, each a whole PDF', async () => {
    const url = `/api/v1/document/policy/${helen.customerId}/708X1000001/708X1000001-schedule`;
    const answers = await Promise.all(Array.from({ length: 30 }, () => get(helen, url)));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(-6).toString()).toContain('%%EOF');
    }
  });
});
