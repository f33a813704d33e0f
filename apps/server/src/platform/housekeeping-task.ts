/** A day in milliseconds, for the cutoffs of housekeeping tasks. */
export const DAY_MS = 24 * 60 * 60_000;

/**
 * Expired sign-in state and OpenID provider rows are kept a day past their expiry (as the provider's own
 * purge at start does), so nothing deletes a row a request is still finishing with.
 */
export const EXPIRED_GRACE_MS = DAY_MS;

/** `now` moved back by `ms`. */
export const before = (now: Date, ms: number): Date => new Date(now.getTime() - ms);

/**
 * One kind of row housekeeping deletes once past its time: each module gives those of its own tables
 * (its `housekeeping`), the platform those of its own, and the scheduler runs them all.
 */
export interface HousekeepingTask {
  /** The key its count is reported under (logs and portal_housekeeping_removed_total{kind}). */
  kind: string;
  /** Rows older than this go. */
  cutoff: (now: Date, auditRetentionDays: number) => Date;
  /** Deletes at most $2 rows older than $1 and returns their number: a short statement each batch. */
  sql: string;
}
