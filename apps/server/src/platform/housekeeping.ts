import type { FastifyInstance } from 'fastify';
import type { Db } from './db';
import { metricsOf } from './metrics';
import type { ModuleContext } from './module';
import { createPollingWorker } from './polling-worker';

/**
 * Advisory lock key held by the instance doing a housekeeping run; any constant shared by every instance
 * and unlike the others (migrations 727274, new users 727275, seeds 727276).
 */
const HOUSEKEEPING_LOCK = 727277;

const DAY_MS = 24 * 60 * 60_000;
/** How long a browser stays known to an account (modules/oidc/sign-in-sessions.ts KNOWN_BROWSER_DAYS). */
const KNOWN_BROWSER_DAYS = 90;
/** Messages are kept this long after they were sent (queue rows, outbox rows), then deleted. */
const SENT_MESSAGE_DAYS = 30;
/**
 * Expired sign-in state and OpenID provider rows are kept a day past their expiry (as the provider's own
 * purge at start does), so nothing deletes a row a request is still finishing with.
 */
const EXPIRED_GRACE_MS = DAY_MS;
/** Drawn PDFs are kept this long after they were drawn; one asked for later is drawn again. */
const PDF_RENDITION_DAYS = 90;
/** Rows deleted per statement: each batch is a short transaction, so no lock is held for long. */
const BATCH_SIZE = 1000;

/** What a run deletes, by kind (the keys of the counts it reports). */
export type HousekeepingKind =
  | 'sentMessages'
  | 'outboxMessages'
  | 'rateCounters'
  | 'signInSessions'
  | 'providerRows'
  | 'oneTimeCodes'
  | 'signInTransactions'
  | 'sessionTokens'
  | 'linkTokens'
  | 'reauthentications'
  | 'webauthnChallenges'
  | 'contactChanges'
  | 'knownBrowsers'
  | 'pdfRenditions'
  | 'auditEvents';

export interface HousekeepingRun {
  /** False when another instance held the lock: it was doing the work, and this one did nothing. */
  ran: boolean;
  /** Rows deleted, by kind. */
  removed: Record<HousekeepingKind, number>;
}

interface Task {
  kind: HousekeepingKind;
  /** Rows older than this go. */
  cutoff: (now: Date, auditRetentionDays: number) => Date;
  /** Deletes at most $2 rows older than $1 and returns their number. */
  sql: string;
}

const before = (now: Date, ms: number) => new Date(now.getTime() - ms);

/** In order: one-time codes before the transactions they belong to (which would take them along). */
const tasks: Task[] = [
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
    // "Where you're signed in" rows of grants that have expired (a deleted grant takes its row with it).
    kind: 'signInSessions',
    cutoff: (now) => now,
    sql: `DELETE FROM portal_sign_in_session WHERE id IN
            (SELECT s.id FROM portal_sign_in_session s
               JOIN oidc_payload g ON g.model = 'Grant' AND g.id = s.grant_id
              WHERE g.expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'providerRows',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM oidc_payload WHERE (model, id) IN
            (SELECT model, id FROM oidc_payload WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'oneTimeCodes',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_code WHERE id IN (SELECT id FROM identity_code WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'signInTransactions',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_transaction WHERE id IN
            (SELECT id FROM identity_transaction WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'sessionTokens',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_session_token WHERE token_hash IN
            (SELECT token_hash FROM identity_session_token WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'linkTokens',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_link_token WHERE token_hash IN
            (SELECT token_hash FROM identity_link_token WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    kind: 'reauthentications',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM portal_reauthentication WHERE grant_id IN
            (SELECT grant_id FROM portal_reauthentication WHERE confirmed_until < $1 LIMIT $2)`,
  },
  {
    // Expired passkey challenges: nothing can use them any more (the consuming DELETE checks the expiry).
    kind: 'webauthnChallenges',
    cutoff: (now) => now,
    sql: `DELETE FROM identity_webauthn_challenge WHERE challenge IN
            (SELECT challenge FROM identity_webauthn_challenge WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    // Email and mobile changes whose code expired over a day ago (used, replaced or never confirmed): the
    // new address or number they hold is personal data with no use left (decision 026). The 30 seconds
    // between sends read the newest row, always far younger.
    kind: 'contactChanges',
    cutoff: (now) => before(now, EXPIRED_GRACE_MS),
    sql: `DELETE FROM identity_contact_change WHERE id IN
            (SELECT id FROM identity_contact_change WHERE expires_at < $1 LIMIT $2)`,
  },
  {
    // Browsers not seen on an account for 90 days: a sign-in from one is news again (decision 025).
    kind: 'knownBrowsers',
    cutoff: (now) => before(now, KNOWN_BROWSER_DAYS * DAY_MS),
    sql: `DELETE FROM portal_known_browser WHERE (customer_id, browser_key) IN
            (SELECT customer_id, browser_key FROM portal_known_browser WHERE last_seen_at < $1 LIMIT $2)`,
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
];

/**
 * One housekeeping run: deletes what is past its time (see `tasks`), in batches of `batchSize` rows, each
 * its own short statement. On PostgreSQL only one instance runs at a time: the run holds an advisory
 * lock (in a transaction of its own, on one pooled connection, while the batches use others), and an
 * instance that cannot take it skips the run. The embedded database has one process, so no lock.
 * `stopping` ends the run between batches (shutdown).
 */
export async function runHousekeeping(
  db: Db,
  now: Date,
  options: { auditRetentionDays: number; batchSize?: number; stopping?: () => boolean },
): Promise<HousekeepingRun> {
  const { auditRetentionDays, batchSize = BATCH_SIZE, stopping = () => false } = options;
  const removed = Object.fromEntries(tasks.map((t) => [t.kind, 0])) as Record<HousekeepingKind, number>;

  const work = async (): Promise<HousekeepingRun> => {
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
export function installHousekeeping(app: FastifyInstance, ctx: ModuleContext): void {
  const { intervalMinutes, auditRetentionDays } = ctx.config.housekeeping;
  if (intervalMinutes === 0) return;
  const metrics = metricsOf(ctx);
  const worker = createPollingWorker({
    name: 'housekeeping',
    pollMs: intervalMinutes * 60_000,
    pass: async (stopping) => {
      const run = await runHousekeeping(ctx.db, ctx.clock.now(), { auditRetentionDays, stopping });
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
