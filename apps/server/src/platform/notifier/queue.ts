import type { Clock } from '../clock';
import type { Db, Queryable } from '../db';
import { createPollingWorker, type PollingWorker } from '../polling-worker';
import {
  DeliveryError,
  maskRecipient,
  type NotifierAdapter,
  type NotifyLog,
  type OutboundMessage,
  type UndeliverableMessage,
} from './message';

/** How the worker paces itself. The defaults suit production; tests shorten nothing, they move the clock. */
export interface QueueTiming {
  /** How often an idle worker looks for due rows (it is also woken at once after each enqueue). */
  pollMs: number;
  /** The wait after the first failure; it doubles after each further one, up to maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** Attempts before a message is given up ("dead"): about 36 minutes of retries with the defaults. */
  maxAttempts: number;
  /** How long a claimed row is another instance's; after that (the instance died) it is taken again. */
  leaseMs: number;
  /** Rows claimed at a time, sent in parallel. */
  batch: number;
}

export const defaultQueueTiming: QueueTiming = {
  pollMs: 1000,
  baseBackoffMs: 5000,
  maxBackoffMs: 15 * 60_000,
  maxAttempts: 10,
  leaseMs: 5 * 60_000,
  batch: 10,
};

/** The wait before attempt `attempts + 1`, after `attempts` failures. */
export function backoffMs(attempts: number, timing: QueueTiming = defaultQueueTiming): number {
  return Math.min(timing.maxBackoffMs, timing.baseBackoffMs * 2 ** Math.max(0, attempts - 1));
}

/** Writes the message as a pending row, due now; in the caller's transaction when `q` is one. */
export async function enqueueMessage(q: Queryable, message: OutboundMessage, now: Date): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO message_queue (created_at, channel, recipient, kind, subject, body, html, customer_id,
                                reference, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $1) RETURNING id`,
    [
      now,
      message.channel,
      message.to,
      message.kind,
      message.subject ?? null,
      message.text,
      message.channel === 'email' ? (message.html ?? null) : null,
      message.customerId ?? null,
      message.reference ?? null,
    ],
  );
  return Number(rows[0]!.id);
}

/**
 * The queue as the metrics show it, in one statement over the partial indexes: messages waiting or
 * being sent, how long the oldest has waited at `now`, and the dead letters.
 */
export async function messageQueueStats(
  q: Queryable,
  now: Date,
): Promise<{ depth: number; oldestAgeSeconds: number; dead: number }> {
  const { rows } = await q.query<{ depth: number; oldest: Date | null; dead: number }>(
    `SELECT
       (SELECT count(*)::int FROM message_queue WHERE status IN ('pending', 'sending')) AS depth,
       (SELECT min(created_at) FROM message_queue WHERE status IN ('pending', 'sending')) AS oldest,
       (SELECT count(*)::int FROM message_queue WHERE status = 'dead') AS dead`,
  );
  const row = rows[0];
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
  return {
    depth: Number(row?.depth ?? 0),
    oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    dead: Number(row?.dead ?? 0),
  };
}

interface ClaimedRow {
  id: number | string;
  channel: OutboundMessage['channel'];
  recipient: string;
  kind: string;
  subject: string | null;
  body: string;
  html: string | null;
  customer_id: string | null;
  reference: string | null;
  attempts: number;
}

/** Rows not yet claimed when it stops stay for the next start. */
export type MessageWorker = PollingWorker;

export interface MessageWorkerOptions {
  db: Db;
  clock: Clock;
  adapterFor: (channel: OutboundMessage['channel']) => NotifierAdapter;
  log: NotifyLog & { warn(obj: object, msg: string): void };
  timing?: Partial<QueueTiming>;
  /**
   * Called in the transaction that marks a message dead (refused for good, or after the last attempt),
   * so what its module records of it commits with it.
   */
  onUndeliverable?: (tx: Queryable, message: UndeliverableMessage) => Promise<void>;
}

/**
 * Sends queued messages after the requests that queued them have answered. Each pass claims up to
 * `batch` due rows in one statement (FOR UPDATE SKIP LOCKED, so instances never claim the same row),
 * sends them through the channel's adapter, and marks each sent (its recipient, text and HTML erased), due
 * again after a back-off, or dead after `maxAttempts` (logged without personal data).
 */
export function createMessageWorker(options: MessageWorkerOptions): MessageWorker {
  const { db, clock, adapterFor, log, onUndeliverable } = options;
  const timing = { ...defaultQueueTiming, ...options.timing };

  const claim = async (): Promise<ClaimedRow[]> => {
    const now = clock.now();
    const { rows } = await db.query<ClaimedRow>(
      `UPDATE message_queue SET status = 'sending', attempts = attempts + 1, locked_until = $2
       WHERE id IN (
         SELECT id FROM message_queue
         WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until <= $1)
         ORDER BY next_attempt_at, id LIMIT $3
         FOR UPDATE SKIP LOCKED)
       RETURNING id, channel, recipient, kind, subject, body, html, customer_id, reference, attempts`,
      [now, new Date(now.getTime() + timing.leaseMs), timing.batch],
    );
    return rows;
  };

  const sendOne = async (row: ClaimedRow) => {
    const adapter = adapterFor(row.channel);
    const fields = { messageId: Number(row.id), channel: row.channel, kind: row.kind, adapter: adapter.name };
    try {
      await adapter.deliver({
        channel: row.channel,
        to: row.recipient,
        kind: row.kind,
        subject: row.subject ?? undefined,
        text: row.body,
        html: row.html,
        customerId: row.customer_id,
      });
    } catch (error) {
      // Only our own failure texts (provider codes, never the message) are kept and logged.
      const reason = error instanceof DeliveryError ? error.message : 'Message delivery failed';
      const refused = error instanceof DeliveryError && error.permanent;
      const now = clock.now();
      if (refused || row.attempts >= timing.maxAttempts) {
        await db.transaction(async (tx) => {
          // Still ours (a lease run out meanwhile would let another instance take it): once only.
          const { rowCount } = await tx.query(
            `UPDATE message_queue SET status = 'dead', locked_until = NULL, last_error = $2
             WHERE id = $1 AND status = 'sending'`,
            [row.id, reason],
          );
          if (rowCount > 0 && onUndeliverable) {
            await onUndeliverable(tx, {
              kind: row.kind,
              reference: row.reference,
              customerId: row.customer_id,
              reason: refused ? 'refused' : 'gave-up',
            });
          }
        });
        log.error(
          { ...fields, attempts: row.attempts, reason },
          refused ? 'message not delivered: refused' : 'message not delivered: gave up',
        );
      } else {
        const retryAt = new Date(now.getTime() + backoffMs(row.attempts, timing));
        await db.query(
          `UPDATE message_queue SET status = 'pending', locked_until = NULL, next_attempt_at = $2, last_error = $3
           WHERE id = $1`,
          [row.id, retryAt, reason],
        );
        log.warn(
          { ...fields, attempts: row.attempts, reason, retryAt: retryAt.toISOString() },
          'message not delivered: will retry',
        );
      }
      return;
    }
    await db.query(
      `UPDATE message_queue SET status = 'sent', sent_at = $2, locked_until = NULL, last_error = NULL,
         recipient = NULL, subject = NULL, body = NULL, html = NULL
       WHERE id = $1`,
      [row.id, clock.now()],
    );
    log.info(
      { ...fields, to: maskRecipient(row.recipient) },
      `message sent: ${row.channel} ${row.kind} to ${maskRecipient(row.recipient)}`,
    );
  };

  return createPollingWorker({
    name: 'message-worker',
    pollMs: timing.pollMs,
    async pass(stopping) {
      for (;;) {
        if (stopping()) return;
        const rows = await claim();
        if (rows.length === 0) return;
        await Promise.all(rows.map(sendOne));
      }
    },
    // The database is down or frozen: the rows wait, the next poll tries again.
    onError: (error) =>
      log.warn({ reason: error instanceof Error ? error.message : 'unknown' }, 'message queue: pass failed'),
  });
}

/** A message given up, as the operator's console lists it: no recipient and no body (issue 42). */
export interface DeadLetter {
  id: string;
  channel: OutboundMessage['channel'];
  kind: string;
  customerId: string | null;
  createdAt: Date;
  attempts: number;
  lastError: string | null;
}

/** The dead letters, newest first (at most `limit`). */
export async function listDeadLetters(q: Queryable, limit: number): Promise<DeadLetter[]> {
  const { rows } = await q.query<{
    id: string | number;
    channel: OutboundMessage['channel'];
    kind: string;
    customer_id: string | null;
    created_at: Date;
    attempts: number;
    last_error: string | null;
  }>(
    `SELECT id, channel, kind, customer_id, created_at, attempts, last_error FROM message_queue
      WHERE status = 'dead' ORDER BY id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    channel: r.channel,
    kind: r.kind,
    customerId: r.customer_id,
    createdAt: new Date(r.created_at),
    attempts: Number(r.attempts),
    lastError: r.last_error,
  }));
}

/** Sends a dead letter again from now, with its attempts counted afresh. False: no such dead letter. */
export async function retryDeadLetter(q: Queryable, id: string, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE message_queue SET status = 'pending', attempts = 0, next_attempt_at = $2, locked_until = NULL
      WHERE id = $1 AND status = 'dead'`,
    [id, now],
  );
  return rowCount > 0;
}

/** Discards a dead letter (its row, with the recipient and body, goes). False: no such dead letter. */
export async function discardDeadLetter(q: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await q.query(`DELETE FROM message_queue WHERE id = $1 AND status = 'dead'`, [id]);
  return rowCount > 0;
}
