import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkLineResult, BulkSummary } from '@portal/contracts/integration/bulk';
import type { CustomerMessage, MessagePage } from '@portal/contracts/message';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { bearer, clientToken, eventsOnlyClient, integrationEnv } from '../../../test/integration-client';
import { signIn, type SignedIn } from '../../../test/sign-in';

/*
 * Messages from the insurer (issue 40 point 6): the integration API's customer message (versions,
 * tombstones, references, the rich-text rule, bulk lines), "Your messages" for the signed-in customer
 * (newest first, paged, unread until opened on any device, expired ones hidden, nobody else's), and
 * erasure. Demo customers: Owen Pritchard (C1000017: paperless, an online account, home policy 717X1000017,
 * Direct Debit confirmation ba10000171-dd) and Margaret Thompson (C1000001, policy 102X4567891, her
 * confirmation ba10000011-dd). On PostgreSQL the test files share one database: message ids are this
 * run's own, and Owen's messages are cleared first (no other test file uses them).
 */

const owen = { customerId: 'C1000017', email: 'owen.pritchard@example.co.uk', policy: '717X1000017' };
const margaret = { customerId: 'C1000001', policy: '102X4567891', document: 'ba10000011-dd' };
const owensDocument = { id: 'ba10000171-dd', account: 'BA10000171' };

const run = randomUUID().slice(0, 8);
/** A message id of this run's own. */
const id = (name: string) => `${name}-${run}`;

const message = (version: number | string, extra: Record<string, unknown> = {}) => ({
  version,
  subject: 'Your renewal is ready',
  body: '<p>Your renewal documents are ready. <a href="/account/policies">See your policy</a>.</p>',
  category: 'renewal',
  ...extra,
});

function parseBulk(body: string) {
  const lines = body
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as BulkLineResult | BulkSummary);
  const last = lines.pop() as BulkSummary;
  return { results: lines as BulkLineResult[], summary: last.summary };
}

describe.each(databases())('customer messages on $name', ({ open }) => {
  let t: TestContext;
  let token: string;
  let signedIn: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(integrationEnv(), { db: await open() });
    token = await clientToken(t.app);
    await t.db.query('DELETE FROM customer_message WHERE customer_id = $1', [owen.customerId]);
    signedIn = await signIn(t, owen.email);
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const url = (messageId: string, customerId = owen.customerId) =>
    `/integration/v1/customers/${customerId}/messages/${messageId}`;
  const put = (messageId: string, payload: object, customerId = owen.customerId) =>
    t.app.inject({ method: 'PUT', url: url(messageId, customerId), headers: bearer(token), payload });
  const remove = (messageId: string, version: number) =>
    t.app.inject({ method: 'DELETE', url: `${url(messageId)}?version=${version}`, headers: bearer(token) });
  const get = (path: string, who: SignedIn = signedIn) =>
    t.app.inject({ method: 'GET', url: path, headers: { authorization: who.authorization } });
  const list = async (query = '') => {
    const res = await get(`/api/v1/message/${owen.customerId}${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<MessagePage>();
  };
  const unread = async (who: SignedIn = signedIn) =>
    (await get(`/api/v1/message/unread/${owen.customerId}`, who)).json<{ unread: number }>().unread;
  /** The notices the document module recorded of a message (category message, kind its category). */
  const notices = async (messageId: string) =>
    (
      await t.db.query<{ kind: string; change: string }>(
        `SELECT kind, change FROM document_notice
          WHERE customer_id = $1 AND category = 'message' AND document_id = $2 ORDER BY id`,
        [owen.customerId, messageId],
      )
    ).rows;

  describe('the integration record', () => {
    it('creates a message, answers unchanged for the same again, and notifies it once as new', async () => {
      const m = id('new');
      const first = await put(m, message(1));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        type: 'customerMessage',
        key: `${owen.customerId}/${m}`,
        status: 'created',
        version: 1,
      });
      const again = await put(m, message(1));
      expect(again.json()).toMatchObject({ status: 'unchanged', version: 1 });
      expect(await notices(m)).toEqual([{ kind: 'renewal', change: 'new' }]);
      // Audited as the other records are, naming the client.
      const { rows } = await t.db.query<{ event_id: string; on_behalf_of: string }>(
        `SELECT event_id, on_behalf_of FROM audit_event WHERE customer_id = $1 AND details->>'key' = $2`,
        [owen.customerId, `${owen.customerId}/${m}`],
      );
      expect(rows).toEqual([
        { event_id: 'integration.customerMessage.created', on_behalf_of: 'client:test-system' },
      ]);
    });

    it('refuses an older version (409 STALE_VERSION) and the same version with other content (409 VERSION_CONFLICT)', async () => {
      const m = id('versions');
      expect((await put(m, message(5))).statusCode).toBe(200);
      const older = await put(m, message(4, { subject: 'Older' }));
      expect(older.statusCode).toBe(409);
      expect(older.json()).toMatchObject({ code: 'STALE_VERSION', heldVersion: 5 });
      const conflict = await put(m, message(5, { subject: 'Other' }));
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toMatchObject({ code: 'VERSION_CONFLICT', heldVersion: 5 });
      expect(await notices(m)).toHaveLength(1);
    });

    it('notifies a changed message as updated and makes it unread again; a new expiry alone tells no one', async () => {
      const m = id('changed');
      await put(m, message(1));
      expect((await get(`/api/v1/message/${owen.customerId}/${m}`)).statusCode).toBe(200);
      const isUnread = async () => (await list('?pageSize=50')).data.find((x) => x.id === m)?.isUnread;
      expect(await isUnread()).toBe(false);

      const expiry = await put(m, message(2, { expiresAt: '2099-01-01T00:00:00Z' }));
      expect(expiry.json()).toMatchObject({ status: 'updated' });
      expect(await notices(m)).toEqual([{ kind: 'renewal', change: 'new' }]);
      expect(await isUnread()).toBe(false);

      const changed = await put(
        m,
        message(3, {
          body: '<p>Your renewal has changed.</p>',
          category: 'payment',
          expiresAt: '2099-01-01T00:00:00Z',
        }),
      );
      expect(changed.json()).toMatchObject({ status: 'updated' });
      expect(await notices(m)).toEqual([
        { kind: 'renewal', change: 'new' },
        { kind: 'payment', change: 'updated' },
      ]);
      expect(await isUnread()).toBe(true);
    });

    it('tells nobody of a message that has expired already', async () => {
      const m = id('expired-already');
      const past = new Date(t.clock.now().getTime() - 60_000).toISOString();
      expect((await put(m, message(1, { expiresAt: past }))).json()).toMatchObject({ status: 'created' });
      expect(await notices(m)).toEqual([]);
    });

    it('removes a message (nobody told), remembers the removal against older versions', async () => {
      const m = id('removed');
      await put(m, message(3));
      const removed = await remove(m, 4);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toMatchObject({ status: 'removed', version: 4 });
      expect((await get(`/api/v1/message/${owen.customerId}/${m}`)).statusCode).toBe(404);
      expect((await list('?pageSize=50')).data.map((x) => x.id)).not.toContain(m);
      // The tombstone: an older upsert is stale, a newer one brings it back.
      expect((await put(m, message(3))).statusCode).toBe(409);
      expect((await remove(m, 4)).json()).toMatchObject({ status: 'unchanged' });
      expect(await notices(m)).toEqual([{ kind: 'renewal', change: 'new' }]);
      expect((await put(m, message(5))).json()).toMatchObject({ status: 'created' });
    });

    it("refuses a customer, policy or document not held, or another customer's (422 naming the field)", async () => {
      const refused = async (payload: object, field: string, customerId = owen.customerId) => {
        const res = await put(id('refused'), payload, customerId);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toMatchObject({
          code: 'REFERENCE_NOT_HELD',
          fieldErrors: { [field]: expect.any(String) },
        });
      };
      await refused(message(1), 'customerId', 'C9999990');
      await refused(message(1, { policyNumber: '999X9999999' }), 'policyNumber');
      await refused(message(1, { policyNumber: margaret.policy }), 'policyNumber');
      await refused(message(1, { documentId: 'no-such-document' }), 'documentId');
      await refused(message(1, { documentId: margaret.document }), 'documentId');
      // Nothing of them was written.
      expect((await list('?pageSize=50')).data.map((x) => x.id)).not.toContain(id('refused'));

      const linked = await put(
        id('linked'),
        message(1, { policyNumber: owen.policy, documentId: owensDocument.id }),
      );
      expect(linked.statusCode, linked.body).toBe(200);
    });

    it('takes only the rich-text subset content files may carry in the body (400 naming body)', async () => {
      for (const body of [
        '<p>Hi</p><script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '<p onclick="steal()">Click</p>',
        '<p style="color:red">Red</p>',
        '<a href="javascript:alert(1)">Open</a>',
        '<iframe src="https://example.com"></iframe>',
        '<!-- hidden -->',
        '',
      ]) {
        const res = await put(id('html'), message(1, { body }));
        expect(res.statusCode, body).toBe(400);
        expect(res.json()).toMatchObject({ fieldErrors: { body: expect.any(String) } });
      }
      const subject = await put(id('html'), message(1, { subject: 'Two\nlines' }));
      expect(subject.statusCode).toBe(400);
      const category = await put(id('html'), message(1, { category: 'marketing' }));
      expect(category.json()).toMatchObject({ fieldErrors: { category: expect.any(String) } });
    });

    it('needs the messages.write scope', async () => {
      const reader = await clientToken(t.app, eventsOnlyClient, ['events.read']);
      const res = await t.app.inject({
        method: 'PUT',
        url: url(id('scope')),
        headers: bearer(reader),
        payload: message(1),
      });
      expect(res.statusCode).toBe(403);
    });

    it('loads and removes messages in a bulk file, each line on its own', async () => {
      const [a, b] = [id('bulk-a'), id('bulk-b')];
      const line = (messageId: string, record: object) => ({
        type: 'customerMessage',
        key: `${owen.customerId}/${messageId}`,
        record,
      });
      const file = [
        line(a, message(1)),
        line(a, message(1)),
        line(b, message(1, { body: '<script>x</script>' })),
        line(b, message(1, { policyNumber: margaret.policy })),
        { op: 'remove', type: 'customerMessage', key: `${owen.customerId}/${a}`, version: 2 },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n');
      const res = await t.app.inject({
        method: 'POST',
        url: '/integration/v1/bulk',
        headers: { ...bearer(token), 'content-type': 'application/x-ndjson' },
        payload: `${file}\n`,
      });
      expect(res.statusCode).toBe(200);
      const { results, summary } = parseBulk(res.body);
      expect(results.map((r) => r.status)).toEqual(['created', 'unchanged', 'refused', 'refused', 'removed']);
      expect(results[2]!.error).toMatchObject({
        status: 400,
        fieldErrors: { 'record.body': expect.any(String) },
      });
      expect(results[3]!.error).toMatchObject({
        status: 422,
        fieldErrors: { policyNumber: expect.any(String) },
      });
      expect(summary).toMatchObject({ lines: 5, created: 1, unchanged: 1, refused: 2, removed: 1 });
      expect(await notices(a)).toEqual([{ kind: 'renewal', change: 'new' }]);
      expect(await notices(b)).toEqual([]);
    });
  });

  describe('"Your messages" for the signed-in customer', () => {
    const mine = {
      oldest: id('page-1'),
      older: id('page-2'),
      middle: id('page-3'),
      newer: id('page-4'),
      newest: id('page-5'),
      expired: id('page-expired'),
    };

    beforeAll(async () => {
      await t.db.query('DELETE FROM customer_message WHERE customer_id = $1', [owen.customerId]);
      const now = t.clock.now().getTime();
      const day = (n: number) => new Date(now + n * 864e5).toISOString();
      const load = async (messageId: string, extra: Record<string, unknown>) =>
        expect((await put(messageId, message(1, extra))).statusCode).toBe(200);
      await load(mine.oldest, { subject: 'Oldest', sentAt: day(-50), category: 'general' });
      await load(mine.older, { subject: 'Older', sentAt: day(-40), category: 'claim' });
      await load(mine.middle, {
        subject: 'Middle',
        sentAt: day(-30),
        category: 'payment',
        policyNumber: owen.policy,
        documentId: owensDocument.id,
      });
      await load(mine.newer, { subject: 'Newer', sentAt: day(-20) });
      // No sentAt: received now, so the newest.
      await load(mine.newest, { subject: 'Newest' });
      await load(mine.expired, { subject: 'Expired', sentAt: day(-10), expiresAt: day(-1) });
    });

    it('lists them newest first, a page at a time, all unread, the expired one left out', async () => {
      const first = await list('?page=1&pageSize=2');
      expect(first).toMatchObject({ currentPage: 1, lastPage: 3, pageSize: 2, totalRecords: 5 });
      const pages = [first, await list('?page=2&pageSize=2'), await list('?page=3&pageSize=2')];
      expect(pages.flatMap((p) => p.data.map((m) => m.subject))).toEqual([
        'Newest',
        'Newer',
        'Middle',
        'Older',
        'Oldest',
      ]);
      expect(pages.flatMap((p) => p.data).every((m) => m.isUnread)).toBe(true);
      expect(first.data[1]).toEqual({
        id: mine.newer,
        subject: 'Newer',
        category: 'renewal',
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        isUnread: true,
      });
      expect(await unread()).toBe(5);
      // The default page, and a page past the end.
      expect((await list()).data).toHaveLength(5);
      expect((await list('?page=9&pageSize=2')).data).toEqual([]);
    });

    it('opens a message with its links, and it is read from then on, on every device', async () => {
      const elsewhere = await signIn(t, owen.email);
      const res = await get(`/api/v1/message/${owen.customerId}/${mine.middle}`);
      expect(res.statusCode).toBe(200);
      expect(res.json<CustomerMessage>()).toEqual({
        id: mine.middle,
        subject: 'Middle',
        category: 'payment',
        receivedAt: expect.any(String),
        body: message(1).body,
        policy: { policyNumber: owen.policy, productName: 'Home Insurance' },
        document: {
          id: owensDocument.id,
          name: 'Direct Debit confirmation',
          date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
          kind: 'bill',
          reference: owensDocument.account,
        },
      });
      expect(await unread(elsewhere)).toBe(4);
      const seen = (
        await get(`/api/v1/message/${owen.customerId}?pageSize=50`, elsewhere)
      ).json<MessagePage>();
      expect(seen.data.filter((m) => m.isUnread).map((m) => m.id)).not.toContain(mine.middle);
      // Opened again: nothing changes.
      expect((await get(`/api/v1/message/${owen.customerId}/${mine.middle}`, elsewhere)).statusCode).toBe(
        200,
      );
      expect(await unread()).toBe(4);
    });

    it("answers 404 for an expired message, another customer's, or another customer id; 400 for bad input", async () => {
      expect((await get(`/api/v1/message/${owen.customerId}/${mine.expired}`)).statusCode).toBe(404);
      // Margaret's demo message, asked for under Owen's id; Margaret's own list with Owen's token.
      const theirs = await get(`/api/v1/message/${owen.customerId}/renewal-ready-ngh`);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toMatchObject({ code: expect.any(String), correlationId: expect.any(String) });
      for (const path of [
        `/api/v1/message/${margaret.customerId}`,
        `/api/v1/message/${margaret.customerId}/renewal-ready-ngh`,
        `/api/v1/message/unread/${margaret.customerId}`,
        // Not a customer id at all: not the token's either.
        '/api/v1/message/not-a-customer',
      ]) {
        expect((await get(path)).statusCode, path).toBe(404);
      }
      for (const path of [
        `/api/v1/message/${owen.customerId}/bad.id`,
        `/api/v1/message/${owen.customerId}/${'x'.repeat(65)}`,
        `/api/v1/message/${owen.customerId}?pageSize=500`,
        `/api/v1/message/${owen.customerId}?page=0`,
      ]) {
        const res = await get(path);
        expect(res.statusCode, path).toBe(400);
        expect(res.json()).toMatchObject({ code: expect.any(String), correlationId: expect.any(String) });
      }
      // Without a token: 401.
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/v1/message/${owen.customerId}` })).statusCode,
      ).toBe(401);
    });

    it("leaves out a link whose policy or document is no longer the customer's", async () => {
      const m = id('stale-link');
      await put(m, message(1, { documentId: owensDocument.id }));
      // The document moves on (removed upstream): the message stays, without the link.
      await t.db.query(
        'UPDATE customer_message SET document_id = $3 WHERE customer_id = $1 AND message_id = $2',
        [owen.customerId, m, 'gone-since'],
      );
      const res = (await get(`/api/v1/message/${owen.customerId}/${m}`)).json<CustomerMessage>();
      expect(res).toMatchObject({ policy: null, document: null });
    });
  });
});

describe('erasing a customer with messages', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(integrationEnv());
  });
  afterAll(() => t.close());

  it("removes their messages and what they had read, and nobody else's", async () => {
    const token = await clientToken(t.app);
    const customerId = `C8${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
    const put = (url: string, payload: object) =>
      t.app.inject({ method: 'PUT', url, headers: bearer(token), payload });
    const customer = await put(`/integration/v1/customers/${customerId}`, {
      version: 1,
      title: 'Ms',
      firstName: 'Erin',
      lastName: 'Test',
      dateOfBirth: '1970-01-01',
      email: `${customerId.toLowerCase()}@example.co.uk`,
      mobileNumber: '07700900001',
      landlineNumber: null,
      address: {
        lineOne: '1 Test Street',
        lineTwo: '',
        lineThree: '',
        town: 'Testing',
        county: '',
        postCode: 'TE1 1ST',
      },
      agencyId: null,
    });
    expect(customer.statusCode, customer.body).toBe(200);
    expect(
      (await put(`/integration/v1/customers/${customerId}/messages/erase-me`, message(1))).statusCode,
    ).toBe(200);
    await t.db.query(
      `INSERT INTO customer_message_read (customer_id, message_id, read_at) VALUES ($1, 'erase-me', now())`,
      [customerId],
    );
    const count = async (table: string, who: string) =>
      Number(
        (
          await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE customer_id = $1`, [
            who,
          ])
        ).rows[0]!.n,
      );
    const othersBefore = await count('customer_message', margaret.customerId);
    expect(othersBefore).toBeGreaterThan(0);

    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/integration/v1/customers/${customerId}?version=2`,
      headers: bearer(token),
    });
    expect(erased.statusCode).toBe(200);
    expect(await count('customer_message', customerId)).toBe(0);
    expect(await count('customer_message_read', customerId)).toBe(0);
    expect(await count('customer_message', margaret.customerId)).toBe(othersBefore);
  });
});
