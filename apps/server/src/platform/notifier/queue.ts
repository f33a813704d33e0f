import { AsyncResource } from 'node:async_hooks';
import type { Clock } from '../clock';
import type { Db, Queryable } from '../db';
import {
  DeliveryError,
  maskRecipient,
  type NotifierAdapter,
  type NotifyLog,
  type OutboundMessage,
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
    `INSERT INTO message_queue (created_at, channel, recipient, kind, subject, body, customer_id, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $1) RETURNING id`,
    [
      now,
      message.channel,
      message.to,
      message.kind,
      message.subject ?? null,
      message.text,
      message.customerId ?? null,
    ],
  );
  return Number(rows[0]!.id);
}

interface ClaimedRow {
  id: number | string;
  channel: OutboundMessage['channel'];
  recipient: string;
  kind: string;
  subject: string | null;
  body: string;
  customer_id: string | null;
  attempts: number;
}

export interface MessageWorker {
  /** Starts polling (idempotent). */
  start(): void;
  /** Looks for due rows now rather than at the next poll; safe to call from inside a request. */
  wake(): void;
  /** Sends every due row and resolves when none is due and none is in flight. */
  drain(): Promise<void>;
  /** Stops polling and waits for the sends in flight; rows not yet claimed stay for the next start. */
  stop(): Promise<void>;
}

export interface MessageWorkerOptions {
  db: Db;
  clock: Clock;
  adapterFor: (channel: OutboundMessage['channel']) => NotifierAdapter;
  log: NotifyLog & { warn(obj: object, msg: string): void };
  timing?: Partial<QueueTiming>;
}

/**
 * Sends queued messages after the requests that queued them have answered. Each pass claims up to
 * `batch` due rows in one statement (FOR UPDATE SKIP LOCKED, so instances never claim the same row),
 * sends them through the channel's adapter, and marks each sent (its recipient and text erased), due
 * again after a back-off, or dead after `maxAttempts` (logged without personal data).
 */
export function createMessageWorker(options: MessageWorkerOptions): MessageWorker {
  const { db, clock, adapterFor, log } = options;
  const timing = { ...defaultQueueTiming, ...options.timing };
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const claim = async (): Promise<ClaimedRow[]> => {
    const now = clock.now();
    const { rows } = await db.query<ClaimedRow>(
      `UPDATE message_queue SET status = 'sending', attempts = attempts + 1, locked_until = $2
       WHERE id IN (
         SELECT id FROM message_queue
         WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until <= $1)
         ORDER BY next_attempt_at, id LIMIT $3
         FOR UPDATE SKIP LOCKED)
       RETURNING id, channel, recipient, kind, subject, body, customer_id, attempts`,
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
        customerId: row.customer_id,
      });
    } catch (error) {
      // Only our own failure texts (provider codes, never the message) are kept and logged.
      const reason = error instanceof DeliveryError ? error.message : 'Message delivery failed';
      const now = clock.now();
      if (row.attempts >= timing.maxAttempts) {
        await db.query(
          `UPDATE message_queue SET status = 'dead', locked_until = NULL, last_error = $2 WHERE id = $1`,
          [row.id, reason],
        );
        log.error({ ...fields, attempts: row.attempts, reason }, 'message not delivered: gave up');
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
         recipient = NULL, subject = NULL, body = NULL
       WHERE id = $1`,
      [row.id, clock.now()],
    );
    log.info(
      { ...fields, to: maskRecipient(row.recipient) },
      `message sent: ${row.channel} ${row.kind} to ${maskRecipient(row.recipient)}`,
    );
  };

  const pass = async () => {
    do {
      again = false;
      for (;;) {
        if (stopping) return;
        const rows = await claim();
        if (rows.length === 0) break;
        await Promise.all(rows.map(sendOne));
      }
    } while (again && !stopping);
  };

  const schedule = () => {
    clearTimeout(timer);
    if (!started || stopping) return;
    timer = setTimeout(run, timing.pollMs);
    timer.unref();
  };

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => {
        // The database is down or frozen: the rows wait, the next poll tries again.
        log.warn(
          { reason: error instanceof Error ? error.message : 'unknown' },
          'message queue: pass failed',
        );
      })
      .finally(() => {
        running = undefined;
        schedule();
      });
  }

  // Wakes come from inside requests and transactions; the pass must run outside their async context
  // (PGlite routes a query made inside a transaction's context into that transaction).
  const scope = new AsyncResource('message-worker');

  return {
    start() {
      if (started) return;
      started = true;
      stopping = false;
      scope.runInAsyncScope(() => setImmediate(run));
    },
    wake() {
      if (!started || stopping) return;
      scope.runInAsyncScope(() => setImmediate(run));
    },
    async drain() {
      if (stopping) return;
      scope.runInAsyncScope(run);
      while (running) await running;
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      while (running) await running;
      started = false;
    },
  };
}
