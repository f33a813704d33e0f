import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { pdfText } from '../../../test/pdf-text';
import { signIn, type SignedIn } from '../../../test/sign-in';

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
    // Kept only by the customer's own browser, and checked each time (ETag, 304).
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['etag']).toMatch(/^"[0-9a-f]{64}"$/);
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

  it('answers the policy wording with the policy and its product, and no list of cover', async () => {
    const res = await get(
      margaret,
      `/api/v1/document/policy/${margaret.customerId}/102X4567891/102X4567891-policy-wording`,
    );
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Policy wording');
    expect(text).toContain('Margaret Thompson');
    expect(text).toMatch(/Policy number:?\s*102X4567891/);
    expect(text).toMatch(/This document explains the terms of your [a-z ]+insurance/);
    expect(text).not.toContain('What you are covered for');
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

  describe('PDFs drawn once and kept (issue 27)', () => {
    const thomasSchedule = (who: SignedIn) =>
      `/api/v1/document/policy/${who.customerId}/910X1000002/910X1000002-schedule`;
    const withTag = (who: SignedIn, url: string, etag: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: who.authorization, 'if-none-match': etag },
      });
    const kept = async (etag: string) =>
      (
        await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM document_rendition WHERE content_hash = $1',
          [JSON.parse(etag) as string],
        )
      ).rows[0]!.n;

    it('answers the same bytes again, 304 to the tag the browser holds, and keeps one copy', async () => {
      const url = `/api/v1/document/billing/${helen.customerId}`;
      const list = await get(helen, url);
      expect(list.headers['cache-control']).toBe('no-store');
      const groups = list.json<{ data: Array<{ documentSummaries: Array<{ id: string }> }> }>().data;
      const docUrl = `${url}/${groups[0]!.documentSummaries[0]!.id}`;
      const first = await get(helen, docUrl);
      expect(first.statusCode).toBe(200);
      const etag = first.headers['etag'] as string;
      expect(await kept(etag)).toBe(1);
      const again = await get(helen, docUrl);
      expect(again.headers['etag']).toBe(etag);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

      const notModified = await withTag(helen, docUrl, `W/"x", ${etag}`);
      expect(notModified.statusCode).toBe(304);
      expect(notModified.rawPayload).toHaveLength(0);
      expect(notModified.headers['etag']).toBe(etag);
      expect(notModified.headers['cache-control']).toBe('private, no-cache');
      expect((await withTag(helen, docUrl, '"0000"')).statusCode).toBe(200);
      // Someone else's document stays 404, whatever tag is sent.
      const theirs = await withTag(david, docUrl.replace(helen.customerId, david.customerId), etag);
      expect(theirs.statusCode).toBe(404);
      expect((await withTag(david, docUrl, etag)).statusCode).toBe(404);
    });

    it("draws a new PDF when what it says changes (the customer's address), never the old one", async () => {
      const thomas = await signIn(t, 'thomas.reid@example.co.uk');
      const before = await get(thomas, thomasSchedule(thomas));
      expect(before.statusCode).toBe(200);
      const [{ address_line_1: line }] = (
        await t.db.query<{ address_line_1: string }>(
          'SELECT address_line_1 FROM customer WHERE customer_id = $1',
          [thomas.customerId],
        )
      ).rows as [{ address_line_1: string }];
      try {
        await t.db.query('UPDATE customer SET address_line_1 = $2 WHERE customer_id = $1', [
          thomas.customerId,
          '7 Lighthouse Row',
        ]);
        const after = await withTag(thomas, thomasSchedule(thomas), before.headers['etag'] as string);
        expect(after.statusCode).toBe(200);
        expect(after.headers['etag']).not.toBe(before.headers['etag']);
        expect(await pdfText(after.rawPayload)).toContain('7 Lighthouse Row');
      } finally {
        await t.db.query('UPDATE customer SET address_line_1 = $2 WHERE customer_id = $1', [
          thomas.customerId,
          line,
        ]);
      }
    });

    it('under load, two customers at once each get only their own document', async () => {
      const urls = {
        margaret: `/api/v1/document/policy/${margaret.customerId}/102X4567891/102X4567891-schedule`,
        helen: `/api/v1/document/policy/${helen.customerId}/708X1000001/708X1000001-schedule`,
      };
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0 ? get(margaret, urls.margaret) : get(helen, urls.helen),
        ),
      );
      const tags = new Set(answers.map((a) => a.headers['etag']));
      expect(tags.size).toBe(2);
      const margaretText = await pdfText(answers[0]!.rawPayload);
      const helenText = await pdfText(answers[1]!.rawPayload);
      expect(margaretText).toContain('Margaret Thompson');
      expect(margaretText).not.toContain('Helen Dawson');
      expect(helenText).toContain('Helen Dawson');
      expect(helenText).not.toContain('Margaret Thompson');
      answers.forEach((a, i) => {
        expect(a.statusCode).toBe(200);
        expect(a.headers['etag']).toBe(answers[i % 2]!.headers['etag']);
      });
    });
  });
});
