import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis as RedisClient } from 'ioredis';
import type { Clock } from '../clock';
import { HttpError } from '../errors';
import { decide, type CounterStore } from './store';

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
export type StoreLog = Pick<FastifyInstance['log'], 'info' | 'warn'>;
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

/**
 * A Redis store on a new connection to `redisUrl` (ioredis is loaded only then), once the first
 * connection is made or has failed. `log` is the app's logger once it has one.
 */
export async function openRedisCounterStore(
  redisUrl: string,
  clock: Clock,
  prefix: string,
  commandTimeoutMs: number,
  log: () => StoreLog | undefined,
): Promise<CounterStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, {
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
  const url = new URL(redisUrl);
  const store = redisCounterStore(redis, clock, prefix, {
    log: () => log() ?? silent,
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
