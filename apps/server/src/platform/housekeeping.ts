import type { FastifyInstance } from 'fastify';
import type { Db } from './db';
import { metricsOf } from './metrics';
import { before, DAY_MS, type HousekeepingTask } from './housekeeping-task';
import type { PlatformContext } from './module';
import { createPollingWorker } from './polling-worker';

/**
 * Advisory lock key held by the instance doing a housekeeping run; any constant shared by every instance
 * and unlike the others (migrations 727274, new users 727275, seeds 727276).
 */
const HOUSEKEEPING_LOCK = 727277;

/** Messages are kept this long after they were sent (queue rows, outbox rows), then deleted. */
const SENT_MESSAGE_DAYS = 30;
/** Drawn PDFs are kept this long after they were drawn; one asked for later is drawn again. */
const PDF_RENDITION_DAYS = 90;
/** Rows deleted per statement: each batch is a short transaction, so no lock is held for long. */
const BATCH_SIZE = 1000;

export interface HousekeepingRun<K extends string = string> {
  /** False when another instance held the lock: it was doing the work, and this one did nothing. */
  ran: boolean;
  /** Rows deleted, by kind. */
  removed: Record<K, number>;
}

/**
 * What housekeeping deletes of the platform's own tables; each module gives those of its own (its
 * `housekeeping`), and the composition hands the scheduler the lot (modules/index.ts).
 */
export const platformHousekeeping = [
  {
    kind: 'sentMessages',
    cutoff: (now) => before(now, SENT_MESSAGE_DAYS * DAY_MS),
    sql: `DELETE FROM message_queue WHERE id IN
            (SELECT id FROM message_queue WHERE status = 'sent' AND sent_at < $1 LIMIT $2)`,
  },
  {
    kind: 'outboxMessages',
    cutoff: (now) => before(now, SENT_MESSAGE_DAYS * DAY_MS),
    sql: `DELETE FROM outbox_message WHERE id IN (SELECT id FROM outbox_message WHERE created_at < $1 LIMIT $2)`,
  },
  {
    kind: 'rateCounters',
    // Every count already skips an expired hit: it can go at once.
    cutoff: (now) => now,
    sql: `DELETE FROM rate_counter_hit WHERE id IN (SELECT id FROM rate_counter_hit WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    // Kept PDFs (pdf-renditions.ts): a document asked for again after this is simply drawn again.
    kind: 'pdfRenditions',
    cutoff: (now) => before(now, PDF_RENDITION_DAYS * DAY_MS),
    sql: `DELETE FROM document_rendition WHERE content_hash IN
            (SELECT content_hash FROM document_rendition WHERE created_at < $1 LIMIT $2)`,
  },
  {
    // Append-only otherwise: the trigger lets a DELETE through only below portal.audit_retain_after.
    kind: 'auditEvents',
    cutoff: (now, days) => before(now, days * DAY_MS),
    sql: `DELETE FROM audit_event WHERE id IN (SELECT id FROM audit_event WHERE occurred_at < $1 LIMIT $2)`,
  },
] as const satisfies readonly HousekeepingTask[];

/**
 * One housekeeping run: deletes what is past its time (see `tasks`), in batches of `batchSize` rows, each
 * its own short statement. On PostgreSQL only one instance runs at a time: the run holds an advisory
 * lock (in a transaction of its own, on one pooled connection, while the batches use others), and an
 * instance that cannot take it skips the run. The embedded database has one process, so no lock.
 * `stopping` ends the run between batches (shutdown).
 */
export async function runHousekeepingTasks<K extends string>(
  db: Db,
  now: Date,
  options: {
    tasks: readonly (HousekeepingTask & { kind: K })[];
    auditRetentionDays: number;
    batchSize?: number;
    stopping?: () => boolean;
    /** Waited after each full batch, so customers' calls keep their share of the database (0: none). */
    pauseMs?: number;
  },
): Promise<HousekeepingRun<K>> {
  const { tasks, auditRetentionDays, batchSize = BATCH_SIZE, stopping = () => false, pauseMs = 0 } = options;
  const removed = Object.fromEntries(tasks.map((t) => [t.kind, 0])) as Record<K, number>;

  const work = async (): Promise<HousekeepingRun<K>> => {
    for (const task of tasks) {
      const cutoff = task.cutoff(now, auditRetentionDays);
      while (!stopping()) {
        const { rowCount } =
          task.kind === 'auditEvents'
            ? await db.transaction(async (tx) => {
                await tx.query("SELECT set_config('portal.audit_retain_after', $1, true)", [
                  cutoff.toISOString(),
                ]);
                return tx.query(task.sql, [cutoff, batchSize]);
              })
            : await db.query(task.sql, [cutoff, batchSize]);
        removed[task.kind] += rowCount;
        if (rowCount < batchSize) break;
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }
    return { ran: true, removed };
  };

  const run =
    db.kind === 'pglite'
      ? await work()
      : await db.transaction(async (tx) => {
          const { rows } = await tx.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_xact_lock($1) AS locked',
            [HOUSEKEEPING_LOCK],
          );
          return rows[0]?.locked ? work() : { ran: false, removed };
        });
  return run;
}

/**
 * Runs housekeeping while the app runs, every HOUSEKEEPING_INTERVAL_MINUTES (none when 0): a first run
 * when the app is ready, then one an interval after each ends. Every instance runs the scheduler; the
 * lock makes one do the work. Each run that did work logs one line with the rows removed by kind; a
 * failed run (the database down) is logged and tried again at the next interval. Stops, after the
 * batch in flight, when the app closes.
 */
export function installHousekeeping(
  app: FastifyInstance,
  ctx: PlatformContext,
  tasks: readonly HousekeepingTask[],
): void {
  const { intervalMinutes, auditRetentionDays, pauseMs } = ctx.config.housekeeping;
  if (intervalMinutes === 0) return;
  const metrics = metricsOf(ctx);
  const worker = createPollingWorker({
    name: 'housekeeping',
    pollMs: intervalMinutes * 60_000,
    pass: async (stopping) => {
      const run = await runHousekeepingTasks(ctx.db, ctx.clock.now(), {
        tasks,
        auditRetentionDays,
        stopping,
        pauseMs,
      });
      if (!run.ran) {
        app.log.debug('housekeeping: another instance holds the lock; skipped');
        return;
      }
      for (const [kind, count] of Object.entries(run.removed))
        metrics.housekeepingRemoved.inc({ kind }, count);
      const total = Object.values(run.removed).reduce((sum, n) => sum + n, 0);
      app.log.info({ removed: run.removed }, `housekeeping: removed ${total} rows`);
    },
    onError: (error) =>
      app.log.warn({ err: error }, 'housekeeping failed; it runs again at the next interval'),
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}
