import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, type TestContext } from '../../../test/helpers';
import { smtpReceiver } from '../../../test/smtp-receiver';
import { margaret } from '../../../test/identity-support';
import { ManualClock } from '../clock';
import { openDb, type Db } from '../db';
import { messageWorker, notifier } from '../notifier';
import { DeliveryError, type NotifierAdapter, type OutboundMessage } from './message';
import { backoffMs, createMessageWorker, defaultQueueTiming, enqueueMessage } from './queue';

/**
 * A small SMTP server: answers each message after `delayMs` (a slow provider), with 451 (try later)
 * while `failing()` says so, and keeps the transcript of every message it accepted.
 */
async function smtpServer(options: { delayMs?: number; failing?: () => boolean } = {}) {
  const accepted: string[] = [];
  let refused = 0;
  const server = smtpReceiver((transcript, reply) => {
    setTimeout(() => {
      if (options.failing?.()) {
        refused++;
        reply('451 4.3.0 try again later');
      } else {
        accepted.push(transcript);
        reply('250 2.0.0 queued');
      }
    }, options.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const status = async (db: Db, id: number) =>
  (
    await db.query<{ status: string; attempts: number; body: string | null; last_error: string | null }>(
      'SELECT status, attempts, body, last_error FROM message_queue WHERE id = $1',
      [id],
    )
  ).rows[0];

const email = (n: number | string): OutboundMessage => ({
  channel: 'email',
  to: `queued.${n}@example.org`,
  kind: 'queue-test',
  subject: 'Hello',
  text: `Message ${n}`,
});

describe('message queue', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const track = <T extends { close(): Promise<void> }>(thing: T): T => {
    cleanups.push(() => thing.close());
    return thing;
  };

  it('answers forgotten password as fast for a real account as for an unknown one when mail takes 400 ms', async () => {
    const smtp = track(await smtpServer({ delayMs: 400 }));
    const t: TestContext = track(await createTestApp({ SMTP_URL: smtp.url }));
    const timed = async (address: string, n: number) => {
      const startedAt = performance.now();
      // Each from its own address: this measures timing, not the per-address limits.
      const res = await t.app.inject({
        method: 'POST',
        url: '/Registration/resetPassword',
        payload: { email: address },
        remoteAddress: `10.13.4.${n}`,
      });
      const ms = performance.now() - startedAt;
      expect(res.json()).toEqual({ status: 'OK' });
      return ms;
    };
    // Warm up both paths (first queries, first SMTP connection) before measuring.
    await timed(margaret.email, 200);
    await timed('nobody-warm@example.org', 201);
    await messageWorker(t.app.ctx).drain();
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 15; i++) {
      // An hour on each time: every request for the real account sends an email (3 an hour at most).
      t.clock.advance(61 * 60_000);
      known.push(await timed(margaret.email, i));
      unknown.push(await timed(`nobody-${i}@example.org`, 100 + i));
    }
    const difference = Math.abs(median(known) - median(unknown));
    // The figures for the issue's note (as the database-fault and hostile-text tests report theirs).
    console.warn(
      `[slow mail] forgotten password with a 400 ms mail server: median ${median(known).toFixed(1)} ms (real account), ` +
        `${median(unknown).toFixed(1)} ms (unknown); difference ${difference.toFixed(1)} ms`,
    );
    expect(difference).toBeLessThan(5);
    // Every email went, after its answer: no answer waited 400 ms for one.
    expect(Math.max(...known)).toBeLessThan(400);
    await messageWorker(t.app.ctx).drain();
    expect(smtp.accepted).toHaveLength(16);
  });

  it('retries a failing provider with exponential back-off until it takes the message', async () => {
    let failures = 2;
    const smtp = track(await smtpServer({ failing: () => failures-- > 0 }));
    const t: TestContext = track(await createTestApp({ SMTP_URL: smtp.url }));
    await notifier(t.app.ctx).enqueue(email('retry'));
    const worker = messageWorker(t.app.ctx);
    await worker.drain();
    const { id } = (
      await t.db.query<{ id: number }>(
        "SELECT id FROM message_queue WHERE recipient = 'queued.retry@example.org'",
      )
    ).rows[0]!;
    expect(await status(t.db, id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await status(t.db, id))!.last_error).toBe('SMTP delivery failed (451)');

    // Not before its time: 5 s after the first failure, then 10 s after the second.
    t.clock.advance(backoffMs(1) - 1);
    await worker.drain();
    expect(smtp.refused()).toBe(1);
    t.clock.advance(1);
    await worker.drain();
    expect(smtp.refused()).toBe(2);
    expect(await status(t.db, id)).toMatchObject({ status: 'pending', attempts: 2 });
    t.clock.advance(backoffMs(2) - 1);
    await worker.drain();
    expect(smtp.accepted).toHaveLength(0);
    t.clock.advance(1);
    await worker.drain();

    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.accepted[0]).toContain('RCPT TO:<queued.retry@example.org>');
    // Sent: the row stays for the record, without the recipient or the text.
    expect(await status(t.db, id)).toMatchObject({
      status: 'sent',
      attempts: 3,
      body: null,
      last_error: null,
    });
    expect(backoffMs(3)).toBe(4 * backoffMs(1));
    expect(backoffMs(40)).toBe(defaultQueueTiming.maxBackoffMs);
  });

  it('gives a message up after the last attempt and logs it without personal data', async () => {
    const db = track(await createTestDb());
    const clock = new ManualClock();
    const lines: string[] = [];
    const record = (obj: object, msg: string) => lines.push(JSON.stringify({ ...obj, msg }));
    const worker = createMessageWorker({
      db,
      clock,
      adapterFor: () => ({
        name: 'down',
        deliver: async () => {
          throw new DeliveryError('SMS gateway answered 503');
        },
      }),
      log: { info: record, warn: record, error: record },
      timing: { maxAttempts: 3 },
    });
    const id = await enqueueMessage(
      db,
      { channel: 'sms', to: '07700 900456', kind: 'mfa-code', text: 'Your security code is 918273.' },
      clock.now(),
    );
    for (let attempt = 1; attempt <= 3; attempt++) {
      await worker.drain();
      clock.advance(defaultQueueTiming.maxBackoffMs);
    }
    await worker.drain();
    expect(await status(db, id)).toMatchObject({
      status: 'dead',
      attempts: 3,
      last_error: 'SMS gateway answered 503',
    });
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('message not delivered: gave up');
    for (const line of lines) {
      expect(line).not.toContain('918273');
      expect(line).not.toContain('900456');
    }
  });

  it('keeps queued messages through a restart and sends them when the server is back', async () => {
    // The first run's mail server is not there: the port was free a moment ago and nothing listens now.
    const gone = await smtpServer();
    await gone.close();
    const db = track(await createTestDb());
    const clock = new ManualClock();
    const first = await createTestApp({ SMTP_URL: gone.url }, { db, clock });
    await notifier(first.app.ctx).enqueue(email('restart'));
    await messageWorker(first.app.ctx).drain();
    await first.close();
    const [row] = (
      await db.query<{ status: string; attempts: number }>(
        "SELECT status, attempts FROM message_queue WHERE recipient = 'queued.restart@example.org'",
      )
    ).rows;
    expect(row).toEqual({ status: 'pending', attempts: 1 });

    const smtp = track(await smtpServer());
    const second = track(await createTestApp({ SMTP_URL: smtp.url }, { db, clock }));
    clock.advance(backoffMs(1));
    await messageWorker(second.app.ctx).drain();
    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.accepted[0]).toContain('RCPT TO:<queued.restart@example.org>');
  });

  it('queues a message in the caller transaction: rolled back, it is never sent', async () => {
    const smtp = track(await smtpServer());
    const t: TestContext = track(await createTestApp({ SMTP_URL: smtp.url }));
    await t.db
      .transaction(async (tx) => {
        await notifier(t.app.ctx).enqueue(email('rolled-back'), { tx });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await t.db.transaction((tx) => notifier(t.app.ctx).enqueue(email('committed'), { tx }));
    await messageWorker(t.app.ctx).drain();
    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.accepted[0]).toContain('RCPT TO:<queued.committed@example.org>');
  });

  /*
   * Two instances: two workers, each with its own connections, claiming from one table at once. On
   * PostgreSQL this runs in a schema of its own, so rows of other test files are never touched.
   */
  const instances: Array<{ name: string; open: () => Promise<{ dbs: [Db, Db]; drop(): Promise<void> }> }> = [
    {
      name: 'pglite',
      open: async () => {
        const db = await createTestDb();
        return { dbs: [db, db], drop: () => db.close() };
      },
    },
  ];
  const url = process.env.DATABASE_URL;
  if (url) {
    instances.push({
      name: 'postgres',
      open: async () => {
        const schema = `mq_${randomUUID().replace(/-/g, '')}`;
        const admin = await openDb({ kind: 'postgres', url, max: 1 });
        // The queue's table as the migrations that make and change it leave it (185 changes the outbox's too).
        const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
        const migration = (
          await Promise.all(
            [
              '002_notifier_outbox.sql',
              '005_message_queue.sql',
              '160_document_notices.sql',
              '185_outbox_html.sql',
            ].map((file) => readFile(path.join(migrations, file), 'utf8')),
          )
        ).join('\n');
        await admin.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${migration}`);
        const scoped = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
        const a = await openDb({ kind: 'postgres', url: scoped, max: 4 });
        const b = await openDb({ kind: 'postgres', url: scoped, max: 4 });
        return {
          dbs: [a, b],
          drop: async () => {
            await a.close();
            await b.close();
            await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
            await admin.close();
          },
        };
      },
    });
  }

  for (const instance of instances) {
    it(`sends each message once when two workers claim at the same time (${instance.name})`, async () => {
      const { dbs, drop } = await instance.open();
      cleanups.push(drop);
      const clock = new ManualClock();
      const delivered: Array<{ worker: string; to: string }> = [];
      const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const worker = (name: string, db: Db) =>
        createMessageWorker({
          db,
          clock,
          adapterFor: (): NotifierAdapter => ({
            name,
            deliver: async (message) => {
              await new Promise((resolve) => setTimeout(resolve, 5));
              delivered.push({ worker: name, to: message.to });
            },
          }),
          log: quiet,
          timing: { batch: 3 },
        });
      for (let i = 0; i < 40; i++) await enqueueMessage(dbs[0], email(i), clock.now());
      const a = worker('a', dbs[0]);
      const b = worker('b', dbs[1]);
      await Promise.all([a.drain(), b.drain()]);
      expect(delivered).toHaveLength(40);
      expect(new Set(delivered.map((d) => d.to)).size).toBe(40);
      const { rows } = await dbs[0].query<{ n: number }>(
        "SELECT count(*)::int AS n FROM message_queue WHERE status = 'sent'",
      );
      expect(rows[0]!.n).toBe(40);
      if (instance.name === 'postgres') {
        // Both took a share: the claims really ran side by side.
        expect(new Set(delivered.map((d) => d.worker))).toEqual(new Set(['a', 'b']));
      }
    });
  }
});
