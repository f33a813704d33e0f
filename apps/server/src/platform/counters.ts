import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis as RedisClient } from 'ioredis';
import type { Clock } from './clock';
import type { Db, Queryable } from './db';
import { HttpError } from './errors';
import { instrumentCounterStore } from './instrumented-counters';
import { metricsOf } from './metrics';
import type { ModuleContext } from './module';

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

function decide(
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

/**
 * Counters in the `rate_counter_hit` table; an advisory lock per key makes take() atomic. Keys carry the
 * same prefix as in Redis, so environments (or test files) sharing one database count apart.
 */
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

// A sorted set per key, scored by event time: drop what left the window, count, add if under the limit.
const takeScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
local counted = 0
if count < tonumber(ARGV[3]) and ARGV[5] == '1' then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  count = count + 1
  counted = 1
end
if count > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {counted, count, oldest[2] or ''}
`;

/** Seconds a client is asked to wait before retrying when Redis is unavailable. */
const REDIS_RETRY_AFTER_SECONDS = 5;
/** How long a connection attempt may take. */
const REDIS_CONNECT_TIMEOUT_MS = 1000;
/**
 * A connection that has not answered for this long while commands wait on it is dropped and a new one
 * made: a server that went away without closing its connections (a network partition) is otherwise only
 * noticed by TCP minutes later. At least the command timeout, so a slow answer is not cut off.
 */
const REDIS_SOCKET_TIMEOUT_MS = 2000;
/** Reconnecting in the background, for as long as it takes: 100 ms after a failure, then up to 1 s apart. */
const redisRetryDelay = (attempt: number): number => Math.min(attempt * 100, 1000);

/**
 * Redis did not answer, refused the connection or timed out: calls that need a counter answer 503 with
 * Retry-After (in the envelope of whichever service asked) rather than skip the limit.
 */
class CountersUnavailableError extends HttpError {
  constructor(cause?: unknown) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable. Please try again shortly.',
      undefined,
      { 'Retry-After': String(REDIS_RETRY_AFTER_SECONDS) },
    );
    this.cause = cause;
  }
}

/** The part of Fastify's logger the store uses (an outage begins, an outage ends). */
type StoreLog = Pick<FastifyInstance['log'], 'info' | 'warn'>;
const silent: StoreLog = { info: () => undefined, warn: () => undefined };

/**
 * `promise`, or a rejection when it has not settled `ms` after the call. The timer's verdict waits for
 * the I/O already received (setImmediate runs after the event loop's poll phase): an instance that
 * stalled longer than the timeout (a busy CPU, a long synchronous task) while the answer sat in its
 * socket reads the answer instead of failing a healthy command.
 */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new Error(`Redis did not answer within ${ms} ms`));
        }),
      ms,
    );
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What to log of a Redis error: its code, else its message (neither carries the URL's password). */
const reasonOf = (error: unknown): string =>
  error instanceof Error
    ? String((error as { code?: unknown }).code ?? error.message).slice(0, 200)
    : 'unknown';

/**
 * Counters in Redis sorted sets, one Lua script per decision so it is atomic across instances. While
 * Redis cannot be reached every call throws CountersUnavailableError: at once while the client is
 * reconnecting, within the command timeout when Redis accepts and does not answer. One warning is logged
 * per outage and one line when it ends; the client reconnects by itself.
 */
export function redisCounterStore(
  redis: RedisClient,
  clock: Clock,
  prefix: string,
  options: {
    log?: () => StoreLog;
    /** Where Redis is, for the log (host and port, never the URL: it may carry a password). */
    where?: string;
    /** How long a command may go unanswered before its call fails (none: as long as ioredis waits). */
    commandTimeoutMs?: number;
  } = {},
): CounterStore {
  const { log = () => silent, where = 'Redis', commandTimeoutMs } = options;
  let down = false;
  const failed = (error: unknown) => {
    if (down) return;
    down = true;
    log().warn(
      { redis: where, reason: reasonOf(error) },
      'Redis is unreachable: calls that need a rate-limit counter answer 503 until it is back',
    );
  };
  const answered = () => {
    if (!down) return;
    down = false;
    log().info({ redis: where }, 'Redis is reachable again');
  };
  // Without a listener ioredis reports every failed reconnection as an unhandled error event.
  redis.on('error', failed);
  redis.on('ready', answered);

  const call = async <T>(command: () => Promise<T>): Promise<T> => {
    // Reconnecting: the last connection failed or broke, and a command would only wait to fail.
    const known = redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end';
    try {
      if (known) throw new Error(`Redis connection is ${redis.status}`);
      const value = await (commandTimeoutMs === undefined ? command() : within(command(), commandTimeoutMs));
      answered();
      return value;
    } catch (error) {
      failed(error);
      throw new CountersUnavailableError(error);
    }
  };

  const run = async (key: string, limit: number, windowMs: number, record: boolean) => {
    const now = clock.now().getTime();
    const [counted, count, oldest] = (await call(() =>
      redis.eval(
        takeScript,
        1,
        `${prefix}rl:${key}`,
        String(now),
        String(windowMs),
        String(limit),
        `${now}:${randomUUID()}`,
        record ? '1' : '0',
      ),
    )) as [number, number, string];
    return decide(count, oldest === '' ? null : Number(oldest), limit, windowMs, now, counted === 1);
  };
  return {
    kind: 'redis',
    take: (key, limit, windowMs) => run(key, limit, windowMs, true),
    async takeAll(items, write) {
      const decisions = await Promise.all(
        items.map(({ key, limit, windowMs }) => run(key, limit, windowMs, true)),
      );
      return write(decisions, undefined);
    },
    peek: (key, limit, windowMs) => run(key, limit, windowMs, false),
    async reset(key) {
      await call(() => redis.del(`${prefix}rl:${key}`));
    },
    async ping() {
      await call(() => redis.ping());
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Opens the store the configuration asks for: Redis when REDIS_URL is set, else the database. */
async function openCounterStore(ctx: Pick<ModuleContext, 'config' | 'db' | 'clock'>): Promise<CounterStore> {
  if (!ctx.config.redisUrl) return databaseCounterStore(ctx.db, ctx.clock, ctx.config.redisKeyPrefix);
  const { Redis } = await import('ioredis');
  const commandTimeoutMs = ctx.config.redisCommandTimeoutMs;
  const redis = new Redis(ctx.config.redisUrl, {
    // The store times each call out itself (see within); ioredis's own timeout only clears out commands
    // that would otherwise wait for a connection that never answers.
    commandTimeout: Math.max(REDIS_SOCKET_TIMEOUT_MS, 4 * commandTimeoutMs),
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    socketTimeout: Math.max(REDIS_SOCKET_TIMEOUT_MS, 2 * commandTimeoutMs),
    retryStrategy: redisRetryDelay,
    // Commands sent while the first connection is being made wait for it (within the command timeout);
    // when a connection fails or breaks, those waiting fail at once rather than wait for the next one.
    enableOfflineQueue: true,
    maxRetriesPerRequest: 0,
  });
  const url = new URL(ctx.config.redisUrl);
  const store = redisCounterStore(redis, ctx.clock, ctx.config.redisKeyPrefix, {
    log: () => logs.get(ctx) ?? silent,
    where: `${url.hostname}:${url.port || '6379'}`,
    commandTimeoutMs,
  });
  // The first call waits for the first connection (AUTH and all), or its failure, up to the connect
  // timeout, rather than spend its command timeout on it.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
    redis.once('ready', done);
    redis.once('error', done);
  });
  return store;
}

const logs = new WeakMap<object, StoreLog>();

const stores = new WeakMap<object, Promise<CounterStore>>();

/** The one counter store of an app (shared by its modules), opened on first use. */
export function counterStore(ctx: ModuleContext): Promise<CounterStore> {
  let store = stores.get(ctx);
  if (!store) {
    store = openCounterStore(ctx).then((opened) => instrumentCounterStore(opened, metricsOf(ctx)));
    stores.set(ctx, store);
  }
  return store;
}

/**
 * Gives the app's counter store the app's logger and closes the store with the app (the modules that
 * count close it too; closing twice is safe).
 */
export function installCounterStore(app: FastifyInstance, ctx: ModuleContext): void {
  logs.set(ctx, app.log);
  app.addHook('onClose', async () => closeCounterStore(ctx));
}

/** Closes the app's counter store if one was opened. Safe to call more than once. */
export async function closeCounterStore(ctx: ModuleContext): Promise<void> {
  const store = stores.get(ctx);
  if (!store) return;
  stores.delete(ctx);
  await (await store).close();
}
