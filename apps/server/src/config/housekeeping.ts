import { z } from 'zod';

/*
 * The audit trail's writing (the SPA's events in group commits, decision 015) and its keeping, with the
 * housekeeping that deletes it and whatever else has expired.
 */

export const housekeepingVariables = z.object({
  /** The most client audit events appended in one INSERT (group commit, decision 015). */
  AUDIT_BATCH_MAX: z.coerce.number().int().min(1).max(1000).default(200),
  /** The most client audit events waiting for the next INSERT; beyond that a post is answered 503. */
  AUDIT_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(5000),
  /**
   * Batches of client audit events written at once on PostgreSQL, each on its own pooled connection
   * (decision 015). The embedded database runs one transaction at a time, so there it is always one.
   */
  AUDIT_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * Minutes between housekeeping runs (expired sign-in state, counters and provider rows, messages sent
   * over 30 days ago, the audit trail past AUDIT_RETENTION_DAYS); 0 switches housekeeping off.
   */
  HOUSEKEEPING_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  /**
   * Milliseconds housekeeping waits after each full batch it deletes (default 20), so a big clean-up (a
   * month of audit rows of a million customers) leaves the database's time to customers' calls: measured
   * by `npm run bench:scale -- --housekeeping` (issue 43 point 3, decision 041). 0: back to back.
   */
  HOUSEKEEPING_PAUSE_MS: z.coerce.number().int().min(0).max(10_000).default(20),
  /** Days the audit trail is kept before housekeeping deletes it: seven years (2,557 days) by default. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(365).max(36_500).default(2557),
});

export interface HousekeepingConfig {
  /** Group commit of the SPA's audit events: rows per INSERT, rows that may wait, batches written at once. */
  auditQueue: { maxBatch: number; maxQueue: number; maxInFlight: number };
  /** Housekeeping (platform/housekeeping.ts): minutes between runs (0: off), days the audit trail is kept. */
  housekeeping: { intervalMinutes: number; auditRetentionDays: number; pauseMs: number };
}

export function housekeepingConfig(e: z.infer<typeof housekeepingVariables>): HousekeepingConfig {
  return {
    auditQueue: {
      maxBatch: e.AUDIT_BATCH_MAX,
      maxQueue: e.AUDIT_QUEUE_MAX,
      maxInFlight: e.AUDIT_BATCHES_IN_FLIGHT,
    },
    housekeeping: {
      intervalMinutes: e.HOUSEKEEPING_INTERVAL_MINUTES,
      auditRetentionDays: e.AUDIT_RETENTION_DAYS,
      pauseMs: e.HOUSEKEEPING_PAUSE_MS,
    },
  };
}
