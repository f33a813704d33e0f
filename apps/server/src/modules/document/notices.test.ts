import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  databases,
  dropIsolatedDatabases,
  isolatedDatabases,
  type TestContext,
} from '../../../test/helpers';
import { outbox } from '../../../test/identity-support';
import { bearer, clientToken, eventsOnlyClient, integrationEnv } from '../../../test/integration-client';
import { smtpReceiver } from '../../../test/smtp-receiver';
import { ManualClock } from '../../platform/clock';
import { messageWorker } from '../../platform/notifier';
import { defaultQueueTiming } from '../../platform/notifier/queue';
import { documentNoticeWorker } from './notices';

/*
 * Issue 40 points 1-3: a paperless customer with an online account is emailed once for the documents
 * loaded for them within the window, the insurer gets `customer.document.notified` with their ids, and
 * an email that cannot be delivered gives `customer.notice.failed`. Demo customers: Margaret (C1000001,
 * paperless, registered, policy 102X4567891), David (C1000002, registered, on paper) and Eleanor
 * (C1000003, no online account).
 */

const WINDOW_MS = 10 * 60_000;
const margaret = { customerId: 'C1000001', email: 'margaret.thompson@example.co.uk', policy: '102X4567891' };
const david = { customerId: 'C1000002', email: 'david.okafor@example.co.uk' };
const eleanor = { customerId: 'C1000003', email: 'eleanor.hughes@example.co.uk' };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(600)]);

interface FeedEvent {
  type: string;
  customerId: string;
  data: Record<string, unknown>;
}

/** A small SMTP server answering every message with `answer` (250 accepts it). */
async function smtpServer(answer: () => string) {
  const accepted: string[] = [];
  const server = smtpReceiver((transcript, reply) => {
    const line = answer();
    if (line.startsWith('250')) accepted.push(transcript);
    reply(line);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

afterAll(dropIsolatedDatabases);

/*
 * On the embedded database and, with DATABASE_URL, on PostgreSQL: each test on a database of its own (the
 * pass and the queue act on every customer's rows, so a shared database would give them other files').
 */
describe.each(isolatedDatabases())('document notices on $name', ({ open }) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(env: Record<string, string> = {}) {
    const db = await open();
    cleanups.push(() => db.close());
    const t: TestContext = await createTestApp({ ...integrationEnv(), ...env }, { db });
    cleanups.push(() => t.close());
    // Access tokens last 10 minutes: a new one after each move of the clock.
    let token: string | undefined;
    const auth = async () => bearer((token ??= await clientToken(t.app)));
    const put = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'PUT', url, headers: await auth(), payload });
      if (res.statusCode >= 300) throw new Error(`PUT ${url} answered ${res.statusCode} ${res.body}`);
      return res.json<{ status: string }>();
    };
    const upload = async () => {
      const bytes = pdf();
      const res = await t.app.inject({
        method: 'POST',
        url: '/integration/v1/files',
        headers: { ...(await auth()), 'content-type': 'application/pdf' },
        payload: bytes,
      });
      expect(res.statusCode).toBe(201);
      return sha256(bytes);
    };
    const billingAccount = (accountNumber: string, customerId: string) =>
      put(`/integration/v1/billing-accounts/${accountNumber}`, {
        version: 1,
        customerId,
        paymentMethod: 'Annual',
        collectionDay: null,
        bankAccountEnding: null,
        policyNumbers: [],
      });
    const bill = (accountNumber: string, documentId: string, sha: string, version = 1, name = 'Statement') =>
      put(`/integration/v1/billing-accounts/${accountNumber}/documents/${documentId}`, {
        version,
        kind: 'statement',
        name,
        date: '2026-11-01',
        policyNumber: null,
        file: { sha256: sha, fileName: `${name}.pdf` },
      });
    const pack = (
      policyNumber: string,
      packId: string,
      documents: Array<{ id: string; kind: string; sha: string }>,
      version = 1,
    ) =>
      put(`/integration/v1/policies/${policyNumber}/document-packs/${packId}`, {
        version,
        title: 'Mid-term change',
        createdAt: '2026-11-20T09:00:00Z',
        documents: documents.map((d) => ({
          documentId: d.id,
          kind: d.kind,
          name: `Document ${d.id}`,
          date: '2026-11-20',
          file: { sha256: d.sha, fileName: `${d.id}.pdf` },
        })),
      });
    const remove = async (url: string, version: number) => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${url}?version=${version}`,
        headers: await auth(),
      });
      expect(res.statusCode).toBe(200);
    };
    /** Moves the clock on and runs the notice pass (and the queue's worker, which sends to SMTP). */
    const pass = async (ms: number) => {
      t.clock.advance(ms);
      token = undefined;
      await documentNoticeWorker(t.app.ctx).drain();
      await messageWorker(t.app.ctx).drain();
    };
    const notices = async (email: string) =>
      (await outbox(t.app, email)).filter((m) => m.kind === 'document-notice');
    const feed = async (): Promise<FeedEvent[]> => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/integration/v1/events?limit=500',
        headers: bearer(await clientToken(t.app, eventsOnlyClient, ['events.read'])),
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ events: FeedEvent[] }>().events;
    };
    return { t, auth, put, upload, billingAccount, bill, pack, remove, pass, notices, feed };
  }

  it('emails a paperless registered customer once for a bill and a pack loaded within the window', async () => {
    const s = await start();
    await s.billingAccount('BA40000001', margaret.customerId);
    const [a, b, c] = [await s.upload(), await s.upload(), await s.upload()];
    expect(await s.bill('BA40000001', 'bill-1', a)).toMatchObject({ status: 'created' });
    await s.pass(4 * 60_000);
    await s.pack(margaret.policy, 'mta-40', [
      { id: 'mta-40-schedule', kind: 'schedule', sha: b },
      { id: 'mta-40-certificate', kind: 'certificate', sha: c },
    ]);

    // Within the window of the first: nothing yet.
    await s.pass(WINDOW_MS - 4 * 60_000 - 1);
    expect(await s.notices(margaret.email)).toEqual([]);

    await s.pass(1);
    const sent = await s.notices(margaret.email);
    expect(sent).toHaveLength(1);
    const [email] = sent;
    expect(email!.subject).toBe('You have new documents in your online account');
    expect(email!.body).toMatch(/^Dear Margaret,\n/);
    expect(email!.body).toContain('- Billing statement, added');
    expect(email!.body).toContain('- Policy schedule, added');
    expect(email!.body).toContain('- Insurance certificate, added');
    expect(email!.body).not.toContain('(updated)');
    const publicUrl = s.t.config.publicUrl;
    expect(email!.body).toContain(`${publicUrl}/account/bills-and-payments`);
    expect(email!.body).toContain(`${publicUrl}/account/policies/documents?id=${margaret.policy}`);
    expect(email!.body).not.toContain('Thompson');
    expect(email!.body).not.toMatch(/£/);

    // The insurer's proof: the documents' ids in the feed, once.
    const told = (await s.feed()).filter((e) => e.type === 'customer.document.notified');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ customerId: margaret.customerId });
    expect(told[0]!.data).toMatchObject({ channel: 'email', at: s.t.clock.now().toISOString() });
    expect(told[0]!.data['documents']).toEqual([
      { documentId: 'bill-1', category: 'bill', kind: 'statement', change: 'new' },
      { documentId: 'mta-40-schedule', category: 'policy', kind: 'schedule', change: 'new' },
      { documentId: 'mta-40-certificate', category: 'policy', kind: 'certificate', change: 'new' },
    ]);

    // Later passes send nothing again.
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(1);
  });

  it('tells no customer on paper, nor one without an online account', async () => {
    const s = await start();
    await s.t.db.query(
      // Eleanor cannot choose paperless without an online account: set as if the insurer had.
      `INSERT INTO customer_preferences (customer_id, paperless, updated_at) VALUES ($1, true, now())
       ON CONFLICT (customer_id) DO UPDATE SET paperless = true`,
      [eleanor.customerId],
    );
    await s.billingAccount('BA40000002', david.customerId);
    await s.billingAccount('BA40000003', eleanor.customerId);
    await s.bill('BA40000002', 'bill-david', await s.upload());
    await s.bill('BA40000003', 'bill-eleanor', await s.upload());
    await s.pass(WINDOW_MS);
    expect(await s.notices(david.email)).toEqual([]);
    expect(await s.notices(eleanor.email)).toEqual([]);
    expect((await s.feed()).filter((e) => e.type === 'customer.document.notified')).toEqual([]);
  });

  it('sends nothing for an unchanged re-send or a removal, and says updated for a changed version', async () => {
    const s = await start();
    await s.billingAccount('BA40000004', margaret.customerId);
    const sha = await s.upload();
    await s.bill('BA40000004', 'bill-2', sha);
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(1);

    // The same version and content again: unchanged, nothing to tell.
    expect(await s.bill('BA40000004', 'bill-2', sha)).toMatchObject({ status: 'unchanged' });
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(1);

    // A changed version: one email, saying updated.
    expect(await s.bill('BA40000004', 'bill-2', await s.upload(), 2)).toMatchObject({ status: 'updated' });
    await s.pass(WINDOW_MS);
    const [newest] = await s.notices(margaret.email);
    expect(await s.notices(margaret.email)).toHaveLength(2);
    expect(newest!.subject).toBe('A document in your online account has been updated');
    expect(newest!.body).toContain('- Billing statement (updated), added');

    // Removed: nothing.
    await s.remove('/integration/v1/billing-accounts/BA40000004/documents/bill-2', 3);
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(2);
    const told = (await s.feed()).filter((e) => e.type === 'customer.document.notified');
    expect(told.map((e) => (e.data['documents'] as Array<{ change: string }>)[0]!.change)).toEqual([
      'new',
      'updated',
    ]);
  });

  it('tells only of the documents of a pack that are new or changed', async () => {
    const s = await start();
    const [a, b, c] = [await s.upload(), await s.upload(), await s.upload()];
    await s.pack(margaret.policy, 'renewal-40', [
      { id: 'r40-schedule', kind: 'schedule', sha: a },
      { id: 'r40-wording', kind: 'policy_wording', sha: b },
    ]);
    await s.pass(WINDOW_MS);
    // A new version: the schedule as it was, the wording changed, a certificate added.
    await s.pack(
      margaret.policy,
      'renewal-40',
      [
        { id: 'r40-schedule', kind: 'schedule', sha: a },
        { id: 'r40-wording', kind: 'policy_wording', sha: c },
        { id: 'r40-certificate', kind: 'certificate', sha: c },
      ],
      2,
    );
    await s.pass(WINDOW_MS);
    const told = (await s.feed()).filter((e) => e.type === 'customer.document.notified');
    expect(told).toHaveLength(2);
    expect(told[1]!.data['documents']).toEqual([
      { documentId: 'r40-wording', category: 'policy', kind: 'policy_wording', change: 'updated' },
      { documentId: 'r40-certificate', category: 'policy', kind: 'certificate', change: 'new' },
    ]);
  });

  it('sends a new email for a document arriving after the window, and one for bulk lines', async () => {
    const s = await start();
    await s.billingAccount('BA40000005', margaret.customerId);
    await s.bill('BA40000005', 'bill-3', await s.upload());
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(1);

    // Two bills in one bulk load, after the first email: one more email listing both.
    const [x, y] = [await s.upload(), await s.upload()];
    const line = (key: string, sha: string) =>
      JSON.stringify({
        type: 'billingDocument',
        key: `BA40000005/${key}`,
        record: {
          version: 1,
          kind: 'payment_schedule',
          name: 'Payment schedule',
          date: '2026-12-01',
          policyNumber: null,
          file: { sha256: sha, fileName: 'Schedule.pdf' },
        },
      });
    const bulk = await s.t.app.inject({
      method: 'POST',
      url: '/integration/v1/bulk',
      headers: {
        ...(await s.auth()),
        'content-type': 'application/x-ndjson',
      },
      payload: `${line('bill-4', x)}\n${line('bill-5', y)}\n`,
    });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.body).toContain('"created":2');
    await s.pass(WINDOW_MS);
    const sent = await s.notices(margaret.email);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body.match(/- Payment schedule, added/g)).toHaveLength(2);
  });

  it('drops the pending notices of a customer erased, and a customer back on paper is not emailed', async () => {
    const s = await start();
    await s.billingAccount('BA40000006', margaret.customerId);
    await s.bill('BA40000006', 'bill-6', await s.upload());
    const pending = async () =>
      Number(
        (
          await s.t.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM document_notice WHERE customer_id = $1 AND status = 'pending'",
            [margaret.customerId],
          )
        ).rows[0]!.n,
      );
    expect(await pending()).toBe(1);
    await s.remove(`/integration/v1/customers/${margaret.customerId}`, 99_999_999_999_999);
    expect(await pending()).toBe(0);
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toEqual([]);

    // David paperless when his bill arrives, back on paper before the pass: the notice is dropped.
    await s.t.db.query('UPDATE customer_preferences SET paperless = true WHERE customer_id = $1', [
      david.customerId,
    ]);
    await s.billingAccount('BA40000007', david.customerId);
    await s.bill('BA40000007', 'bill-7', await s.upload());
    await s.t.db.query('UPDATE customer_preferences SET paperless = false WHERE customer_id = $1', [
      david.customerId,
    ]);
    await s.pass(WINDOW_MS);
    expect(await s.notices(david.email)).toEqual([]);
  });

  it('emails a customer on paper who asked for it in their preferences', async () => {
    const s = await start();
    await s.t.db.query(
      `INSERT INTO customer_preferences (customer_id, paperless, notice_email, updated_at)
       VALUES ($1, false, true, now())
       ON CONFLICT (customer_id) DO UPDATE SET paperless = false, notice_email = true`,
      [david.customerId],
    );
    await s.billingAccount('BA40000011', david.customerId);
    await s.bill('BA40000011', 'bill-11', await s.upload());
    await s.pass(WINDOW_MS);
    const [email, ...more] = await s.notices(david.email);
    expect(more).toEqual([]);
    expect(email!.subject).toBe('You have a new document in your online account');
    expect(email!.body).toMatch(/^Dear David,\n/);
    expect(email!.body).not.toContain('paperless');
  });

  it('texts a customer who chose texts, holding the text through the quiet hours but not the email', async () => {
    const s = await start();
    await s.t.db.query('UPDATE customer_preferences SET notice_text = true WHERE customer_id = $1', [
      margaret.customerId,
    ]);
    // 20:55 in London (GMT in November): the window closes at 21:05, in the quiet hours.
    s.t.clock.set('2026-11-21T20:55:00Z');
    await s.billingAccount('BA40000012', margaret.customerId);
    await s.bill('BA40000012', 'bill-12', await s.upload());
    const texts = async () =>
      (await outbox(s.t.app, '07700900123')).filter((m) => m.kind === 'document-notice-text');
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(1);
    expect(await texts()).toEqual([]);

    // 07:59 next morning: still quiet. 08:00: the text goes, once.
    s.t.clock.set('2026-11-22T07:59:00Z');
    await s.pass(0);
    expect(await texts()).toEqual([]);
    await s.pass(60_000);
    const [text, ...more] = await texts();
    expect(more).toEqual([]);
    expect(text!.body).toBe(
      `You have a new document in your online account. Sign in to read it: ${s.t.config.publicUrl}/account/bills-and-payments`,
    );
    expect(text!.body).not.toContain('Margaret');
    await s.pass(WINDOW_MS);
    expect(await texts()).toHaveLength(1);

    const told = (await s.feed()).filter((e) => e.type === 'customer.document.notified');
    expect(told.map((e) => e.data['channel'])).toEqual(['email', 'sms']);
    expect(told[1]!.data['documents']).toEqual([
      { documentId: 'bill-12', category: 'bill', kind: 'statement', change: 'new' },
    ]);
    // The activity shows both.
    const { rows } = await s.t.db.query<{ channel: string }>(
      `SELECT details->>'channel' AS channel FROM audit_event
        WHERE customer_id = $1 AND event_id = 'document.notice.sent' ORDER BY id`,
      [margaret.customerId],
    );
    expect(rows.map((r) => r.channel).slice(-2)).toEqual(['email', 'sms']);
  });

  it('sends no text once the customer stops texts before it goes', async () => {
    const s = await start({ DOCUMENT_NOTICE_QUIET_HOURS: 'off' });
    await s.t.db.query('UPDATE customer_preferences SET notice_text = true WHERE customer_id = $1', [
      margaret.customerId,
    ]);
    await s.billingAccount('BA40000013', margaret.customerId);
    await s.bill('BA40000013', 'bill-13', await s.upload());
    await s.t.db.query('UPDATE customer_preferences SET notice_text = false WHERE customer_id = $1', [
      margaret.customerId,
    ]);
    await s.pass(WINDOW_MS);
    expect(await s.notices(margaret.email)).toHaveLength(1);
    expect((await outbox(s.t.app, '07700900123')).filter((m) => m.kind === 'document-notice-text')).toEqual(
      [],
    );
    const { rows } = await s.t.db.query<{ channel: string; status: string }>(
      `SELECT channel, status FROM document_notice WHERE document_id = 'bill-13' ORDER BY channel`,
    );
    expect(rows).toEqual([
      { channel: 'email', status: 'sent' },
      { channel: 'sms', status: 'dropped' },
    ]);
  });

  it('queues the email in the pass transaction: a pass that fails sends nothing and leaves the notices', async () => {
    const smtp = await smtpServer(() => '250 2.0.0 queued');
    cleanups.push(() => smtp.close());
    const s = await start({ SMTP_URL: smtp.url });
    await s.billingAccount('BA40000008', margaret.customerId);
    await s.bill('BA40000008', 'bill-8', await s.upload());
    // The journal refuses writes for the moment: the pass's transaction rolls back.
    await s.t.db.query(
      `CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'refused'; END $$`,
    );
    await s.t.db.query(
      'CREATE TRIGGER refuse_events BEFORE INSERT ON integration_event FOR EACH ROW EXECUTE FUNCTION refuse_events()',
    );
    await s.pass(WINDOW_MS).catch(() => undefined);
    expect(smtp.accepted).toHaveLength(0);
    await s.t.db.query('DROP TRIGGER refuse_events ON integration_event');
    await s.pass(0);
    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.accepted[0]).toContain(`RCPT TO:<${margaret.email}>`);
    await s.pass(WINDOW_MS);
    expect(smtp.accepted).toHaveLength(1);
    expect((await s.feed()).filter((e) => e.type === 'customer.document.notified')).toHaveLength(1);
  });

  it('records customer.notice.failed when the mail server refuses the email for good', async () => {
    const smtp = await smtpServer(() => '550 5.1.1 mailbox unavailable');
    cleanups.push(() => smtp.close());
    const s = await start({ SMTP_URL: smtp.url });
    await s.billingAccount('BA40000009', margaret.customerId);
    await s.bill('BA40000009', 'bill-9', await s.upload());
    await s.pass(WINDOW_MS);
    const events = await s.feed();
    const failed = events.filter((e) => e.type === 'customer.notice.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      customerId: margaret.customerId,
      data: {
        reason: 'refused',
        channel: 'email',
        documents: [{ documentId: 'bill-9', category: 'bill', kind: 'statement', change: 'new' }],
      },
    });
    // Refused for good: one attempt, no retries.
    const { rows } = await s.t.db.query<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM message_queue WHERE kind = 'document-notice'",
    );
    expect(rows).toEqual([{ status: 'dead', attempts: 1 }]);
  });

  it('records customer.notice.failed when the email is dead-lettered after the retries', async () => {
    const smtp = await smtpServer(() => '451 4.3.0 try again later');
    cleanups.push(() => smtp.close());
    const s = await start({ SMTP_URL: smtp.url });
    await s.billingAccount('BA40000010', margaret.customerId);
    await s.bill('BA40000010', 'bill-10', await s.upload());
    await s.pass(WINDOW_MS);
    expect((await s.feed()).filter((e) => e.type === 'customer.notice.failed')).toEqual([]);
    for (let attempt = 2; attempt <= defaultQueueTiming.maxAttempts; attempt++) {
      await s.pass(defaultQueueTiming.maxBackoffMs);
    }
    const failed = (await s.feed()).filter((e) => e.type === 'customer.notice.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({
      reason: 'gave-up',
      documents: [{ documentId: 'bill-10', category: 'bill', kind: 'statement', change: 'new' }],
    });
    expect((await s.feed()).filter((e) => e.type === 'customer.document.notified')).toHaveLength(1);
  });
});

describe('document notices on two instances', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /*
   * Two instances running the pass at once over one database: the customer's notices go in one email.
   * On PostgreSQL (shared by test files and runs) the ids are this run's own and only they are counted.
   */
  for (const database of databases()) {
    it(`sends one email when two instances run the pass at the same time (${database.name})`, async () => {
      const db = await database.open();
      cleanups.push(() => db.close());
      const clock = new ManualClock();
      const a = await createTestApp(integrationEnv(), { db, clock });
      cleanups.push(() => a.close());
      const b = await createTestApp(integrationEnv(), { db, clock });
      cleanups.push(() => b.close());
      const token = bearer(await clientToken(a.app));
      const run = String(Date.now() % 100_000_000).padStart(8, '0');
      const accountNumber = `BA${run}`;
      const ids = [`two-${run}-1`, `two-${run}-2`];
      const bytes = pdf();
      const upload = await a.app.inject({
        method: 'POST',
        url: '/integration/v1/files',
        headers: { ...token, 'content-type': 'application/pdf' },
        payload: bytes,
      });
      expect(upload.statusCode).toBe(201);
      const put = async (url: string, payload: object) =>
        expect((await a.app.inject({ method: 'PUT', url, headers: token, payload })).json()).toMatchObject({
          status: 'created',
        });
      await put(`/integration/v1/billing-accounts/${accountNumber}`, {
        version: 1,
        customerId: margaret.customerId,
        paymentMethod: 'Annual',
        collectionDay: null,
        bankAccountEnding: null,
        policyNumbers: [],
      });
      for (const id of ids) {
        const res = await b.app.inject({
          method: 'PUT',
          url: `/integration/v1/billing-accounts/${accountNumber}/documents/${id}`,
          headers: token,
          payload: {
            version: 1,
            kind: 'annual_bill',
            name: 'Annual bill',
            date: '2026-11-01',
            policyNumber: null,
            file: { sha256: sha256(bytes), fileName: 'Annual bill.pdf' },
          },
        });
        expect(res.json()).toMatchObject({ status: 'created' });
      }
      clock.advance(WINDOW_MS);
      await Promise.all([documentNoticeWorker(a.app.ctx).drain(), documentNoticeWorker(b.app.ctx).drain()]);
      const { rows } = await db.query<{ status: string; batch_id: string | null }>(
        'SELECT status, batch_id FROM document_notice WHERE document_id = ANY($1::text[])',
        [ids],
      );
      expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
      expect(new Set(rows.map((r) => r.batch_id)).size).toBe(1);
      const events = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM integration_event
          WHERE type = 'customer.document.notified' AND data::text LIKE $1`,
        [`%two-${run}-%`],
      );
      expect(Number(events.rows[0]!.n)).toBe(1);
    });
  }
});
