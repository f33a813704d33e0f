import type { Clock } from '../clock';
import type { Db, Queryable } from '../db';
import { decide, type CounterStore, type RateDecision, type TakeItem } from './store';

/** How often, at most, a store deletes its expired hits (by its clock). */
const SWEEP_EVERY_MS = 1_000;
/**
 * A sweep after the first deletes only hits that expired since the one before, less this margin (clocks
 * of instances a little apart, a transaction still open at the last sweep): the index range it reads then
 * stays small, instead of passing over every row already deleted and not yet vacuumed each time.
 */
const SWEEP_OVERLAP_MS = 5_000;
/** Now and then a sweep reads the whole expired range again, for anything the others missed. */
const FULL_SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Counters in the `rate_counter_hit` table; an advisory lock per key makes take() atomic. Keys carry the
 * same prefix as in Redis, so environments (or test files) sharing one database count apart.
 */
export function databaseCounterStore(db: Db, clock: Clock, prefix = ''): CounterStore {
  let sweeping = false;
  let lastSweep: number | undefined;
  let lastFullSweep: number | undefined;
  /**
   * Expired hits are ignored by every count, and deleted now and then: at most once a second, one sweep
   * at a time. This store's keys only, since another sharing the database (a test file) has its own
   * clock, and its "expired" may be this one's live.
   */
  const sweepNowAndThen = async (now: Date): Promise<void> => {
    const at = now.getTime();
    if (sweeping || (lastSweep !== undefined && at >= lastSweep && at - lastSweep < SWEEP_EVERY_MS)) return;
    sweeping = true;
    // The first sweep is a full one, so there is a last sweep whenever there was a full one.
    const full = lastFullSweep === undefined || at - lastFullSweep >= FULL_SWEEP_EVERY_MS;
    const sweep = full
      ? db.query('DELETE FROM rate_counter_hit WHERE expires_at < $1 AND left(key, length($2)) = $2', [
          now,
          prefix,
        ])
      : db.query(
          'DELETE FROM rate_counter_hit WHERE expires_at >= $3 AND expires_at < $1 AND left(key, length($2)) = $2',
          [now, prefix, new Date(Math.min(lastSweep!, at) - SWEEP_OVERLAP_MS)],
        );
    await sweep
      .then(() => {
        lastSweep = at;
        if (full) lastFullSweep = at;
      })
      .catch(() => undefined)
      .finally(() => (sweeping = false));
  };

  /**
   * takeAll in one transaction: the advisory locks of all the keys (in one order, so two instances'
   * batches cannot deadlock), their counts read in one statement (an index lookup per key), each item
   * decided in order as take() would, the new hits inserted in one statement, then the caller's write.
   * Expired hits are left to the sweep: the count skips them.
   */
  const takeAll = async <T>(
    items: readonly TakeItem[],
    write: (decisions: RateDecision[], tx: Queryable | undefined) => Promise<T>,
  ): Promise<T> => {
    const now = clock.now();
    const nowMs = now.getTime();
    const windows = new Map<string, number>();
    for (const item of items) windows.set(prefix + item.key, item.windowMs);
    const keys = [...windows.keys()];
    if (keys.length === 0) return write([], undefined);
    const outcome = await db.transaction(async (tx) => {
      await tx.query(
        `SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM (VALUES ${keys
          .map((_, i) => `($${i + 1}::text)`)
          .join(', ')}) AS v(k) ORDER BY h) AS locks`,
        keys,
      );
      const { rows } = await tx.query<{ key: string; count: number; oldest: Date | null }>(
        `SELECT w.key, c.count, c.oldest
         FROM (VALUES ${keys.map((_, i) => `($${2 * i + 1}::text, $${2 * i + 2}::timestamptz)`).join(', ')}) AS w(key, since)
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS count, min(at) AS oldest FROM rate_counter_hit WHERE key = w.key AND at > w.since
         ) AS c`,
        keys.flatMap((key) => [key, new Date(nowMs - windows.get(key)!)]),
      );
      const seen = new Map(
        rows.map((r) => [
          r.key,
          { count: Number(r.count), oldest: r.oldest ? new Date(r.oldest).getTime() : null },
        ]),
      );
      const hits: Array<[key: string, expiresAt: Date]> = [];
      const decided = items.map(({ key: name, limit, windowMs }) => {
        const key = prefix + name;
        const counts = seen.get(key) ?? { count: 0, oldest: null };
        seen.set(key, counts);
        if (counts.count >= limit) return decide(counts.count, counts.oldest, limit, windowMs, nowMs, false);
        counts.count += 1;
        counts.oldest ??= nowMs;
        hits.push([key, new Date(nowMs + windowMs)]);
        return decide(counts.count, counts.oldest, limit, windowMs, nowMs, true);
      });
      if (hits.length > 0) {
        await tx.query(
          `INSERT INTO rate_counter_hit (key, at, expires_at) VALUES ${hits
            .map((_, i) => `($${2 * i + 2}, $1, $${2 * i + 3})`)
            .join(', ')}`,
          [now, ...hits.flat()],
        );
      }
      return { written: await write(decided, tx), counted: hits.length };
    });
    // Not waited for: the callers are answered once their counts have committed.
    if (outcome.counted > 0) void sweepNowAndThen(now);
    return outcome.written;
  };

  const read = async (
    q: Pick<Db, 'query'>,
    key: string,
    windowMs: number,
    now: Date,
  ): Promise<{ count: number; oldest: number | null }> => {
    const { rows } = await q.query<{ count: number; oldest: Date | null }>(
      'SELECT count(*)::int AS count, min(at) AS oldest FROM rate_counter_hit WHERE key = $1 AND at > $2',
      [key, new Date(now.getTime() - windowMs)],
    );
    const row = rows[0];
    return { count: Number(row?.count ?? 0), oldest: row?.oldest ? new Date(row.oldest).getTime() : null };
  };
  return {
    kind: 'database',
    async take(name, limit, windowMs) {
      const key = prefix + name;
      const now = clock.now();
      // Already at the limit: the count in the window only falls as time moves on, so the refusal
      // needs no lock, and a client hammering a limit costs one read instead of a locked transaction.
      const seen = await read(db, key, windowMs, now);
      if (seen.count >= limit) return decide(seen.count, seen.oldest, limit, windowMs, now.getTime(), false);
      const decision = await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
        await tx.query('DELETE FROM rate_counter_hit WHERE key = $1 AND at <= $2', [
          key,
          new Date(now.getTime() - windowMs),
        ]);
        const { count, oldest } = await read(tx, key, windowMs, now);
        if (count >= limit) return decide(count, oldest, limit, windowMs, now.getTime(), false);
        await tx.query('INSERT INTO rate_counter_hit (key, at, expires_at) VALUES ($1, $2, $3)', [
          key,
          now,
          new Date(now.getTime() + windowMs),
        ]);
        return decide(count + 1, oldest ?? now.getTime(), limit, windowMs, now.getTime(), true);
      });
      if (decision.allowed) await sweepNowAndThen(now);
      return decision;
    },
    takeAll,
    async peek(name, limit, windowMs) {
      const now = clock.now();
      const { count, oldest } = await read(db, prefix + name, windowMs, now);
      return decide(count, oldest, limit, windowMs, now.getTime(), false);
    },
    async reset(name) {
      await db.query('DELETE FROM rate_counter_hit WHERE key = $1', [prefix + name]);
    },
    async ping() {},
    async close() {},
  };
}
