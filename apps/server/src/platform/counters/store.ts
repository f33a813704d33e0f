import type { Queryable } from '../db';

/*
 * What every counter store is and gives, apart from the stores themselves, so that they, the store the
 * app opens (index.ts) and its instrumented wrapper (../instrumented-counters.ts) all import it without a
 * circle.
 */

/** The outcome of counting one event against a limit. */
export interface RateDecision {
  /** True when the event was within the limit (and, for take(), has been counted). */
  allowed: boolean;
  limit: number;
  /** Events still allowed in the current window after this one. */
  remaining: number;
  /** When the oldest counted event leaves the window, freeing a slot. */
  resetAt: Date;
  /** Whole seconds to wait before another event can be allowed; 0 when allowed. */
  retryAfterSeconds: number;
}

/** One event to count under a key, against a limit in a sliding window. */
export interface TakeItem {
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Sliding-window counters shared by every instance: rate limits, send limits, attempt limits. Backed by
 * the database by default and by Redis when REDIS_URL is set. Time comes from the injected clock, so
 * tests move time instead of sleeping. Each key must always be used with the same window.
 */
export interface CounterStore {
  readonly kind: 'database' | 'redis';
  /** Counts one event under `key` if fewer than `limit` fall in the last `windowMs`; atomic across instances. */
  take(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /**
   * take() for every item, in order, with the same decisions, then `write` with those decisions: for a
   * batch of many callers' events (group-commit.ts). On the database it is one transaction, `tx` that
   * transaction, so the counts and what write stores commit together or not at all; on Redis the counts
   * are taken first and `tx` is undefined (write uses the database itself). Never call it inside a
   * transaction.
   */
  takeAll<T>(
    items: readonly TakeItem[],
    write: (decisions: RateDecision[], tx: Queryable | undefined) => Promise<T>,
  ): Promise<T>;
  /** The same decision as take() would give, without counting anything. */
  peek(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /** Forgets every event under `key`. */
  reset(key: string): Promise<void>;
  /**
   * Resolves when the store can count (Redis answers a PING), else throws the 503 its calls would; the
   * database store resolves at once (/readyz checks the database itself).
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The decision on a key with `count` events in the window, the oldest at `oldest`; both stores use it. */
export function decide(
  count: number,
  oldest: number | null,
  limit: number,
  windowMs: number,
  now: number,
  counted: boolean,
): RateDecision {
  const allowed = counted || count < limit;
  const used = counted ? count : Math.min(count, limit);
  const resetAt = new Date((oldest ?? now) + windowMs);
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
  return { allowed, limit, remaining: Math.max(0, limit - used), resetAt, retryAfterSeconds };
}
