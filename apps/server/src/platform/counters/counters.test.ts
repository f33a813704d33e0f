import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../../../test/helpers';
import { ManualClock } from '../clock';
import type { Db } from '../db';
import { databaseCounterStore } from './database';
import { redisCounterStore } from './redis';
import type { CounterStore } from './store';

/**
 * The same behaviour from every back end: the embedded database always, a PostgreSQL server when
 * DATABASE_URL is set and Redis when REDIS_URL is set. Each run uses its own keys, so runs in parallel
 * against shared servers do not meet.
 */
interface Backend {
  name: string;
  /** Two stores on one back end, as two instances of the app would have. */
  open(clock: ManualClock): Promise<{ a: CounterStore; b: CounterStore; close(): Promise<void> }>;
}

const backends: Backend[] = databases().map(({ name, open }) => ({
  name: `database (${name})`,
  async open(clock) {
    const first: Db = await open();
    const second: Db = name === 'pglite' ? first : await open();
    return {
      a: databaseCounterStore(first, clock),
      b: databaseCounterStore(second, clock),
      async close() {
        await first.close();
        if (second !== first) await second.close();
      },
    };
  },
}));
if (process.env.REDIS_URL) {
  backends.push({
    name: 'redis',
    async open(clock) {
      const prefix = `test-${randomUUID()}:`;
      const a = redisCounterStore(new Redis(process.env.REDIS_URL!), clock, prefix);
      const b = redisCounterStore(new Redis(process.env.REDIS_URL!), clock, prefix);
      return {
        a,
        b,
        async close() {
          await a.close();
          await b.close();
        },
      };
    },
  });
}

describe.each(backends)('counter store: $name', (backend) => {
  const clock = new ManualClock();
  let stores: Awaited<ReturnType<Backend['open']>>;
  const key = () => `test:${randomUUID()}`;

  beforeAll(async () => {
    stores = await backend.open(clock);
  });
  afterAll(() => stores.close());

  it('allows the limit within the window, then refuses until the oldest event leaves it', async () => {
    const { a } = stores;
    const k = key();
    const first = await a.take(k, 3, 60_000);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2, retryAfterSeconds: 0 });
    expect(first.resetAt).toEqual(new Date(clock.now().getTime() + 60_000));
    clock.advance(10_000);
    expect((await a.take(k, 3, 60_000)).remaining).toBe(1);
    clock.advance(10_000);
    expect((await a.take(k, 3, 60_000)).remaining).toBe(0);
    const refused = await a.take(k, 3, 60_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 40 });
    // A sliding window: once the first event is 60 s old there is room for exactly one more.
    clock.advance(40_000);
    expect((await a.take(k, 3, 60_000)).allowed).toBe(true);
    expect((await a.take(k, 3, 60_000)).allowed).toBe(false);
    clock.advance(10_000);
    expect((await a.take(k, 3, 60_000)).allowed).toBe(true);
  });

  it('does not count refused events, peeks without counting, and forgets a key on reset', async () => {
    const { a } = stores;
    const k = key();
    await a.take(k, 1, 1000);
    for (let i = 0; i < 5; i++) expect((await a.take(k, 1, 1000)).allowed).toBe(false);
    clock.advance(1000);
    expect((await a.peek(k, 1, 1000)).allowed).toBe(true);
    expect((await a.peek(k, 1, 1000)).allowed).toBe(true);
    expect((await a.take(k, 1, 1000)).allowed).toBe(true);
    expect((await a.peek(k, 1, 1000)).allowed).toBe(false);
    await a.reset(k);
    expect((await a.take(k, 1, 1000)).allowed).toBe(true);
  });

  it('is shared by two instances and exact under 20 parallel requests', async () => {
    const { a, b } = stores;
    const k = key();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take(k, 5, 60_000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect((await b.peek(k, 5, 60_000)).allowed).toBe(false);
    expect((await a.peek(k, 6, 60_000)).allowed).toBe(true);
  });

  it('takeAll decides each item as take() would, exact across two instances in parallel', async () => {
    const { a, b } = stores;
    const shared = key();
    const minute = 60_000;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const own = key();
        return (i % 2 ? a : b).takeAll(
          [
            { key: shared, limit: 4, windowMs: minute },
            { key: own, limit: 1, windowMs: minute },
            { key: own, limit: 1, windowMs: minute },
          ],
          async (decisions) => decisions.map((d) => d.allowed),
        );
      }),
    );
    expect(results.filter(([sharedAllowed]) => sharedAllowed)).toHaveLength(4);
    for (const [, first, second] of results) expect([first, second]).toEqual([true, false]);
    expect((await a.peek(shared, 4, minute)).allowed).toBe(false);
    expect((await b.peek(shared, 5, minute)).allowed).toBe(true);
  });

  it.skipIf(backend.name === 'redis')(
    'takeAll on the database commits the counts with the write, or neither',
    async () => {
      const { a } = stores;
      const k = key();
      const failing = a.takeAll([{ key: k, limit: 1, windowMs: 60_000 }], async () => {
        throw new Error('the write failed');
      });
      await expect(failing).rejects.toThrow('the write failed');
      expect((await a.peek(k, 1, 60_000)).allowed).toBe(true);
      const written = await a.takeAll([{ key: k, limit: 1, windowMs: 60_000 }], async (decisions, tx) => {
        expect(tx).toBeDefined();
        return decisions[0]!.allowed;
      });
      expect(written).toBe(true);
      expect((await a.peek(k, 1, 60_000)).allowed).toBe(false);
    },
  );

  it('keeps keys apart', async () => {
    const { a } = stores;
    const k1 = key();
    const k2 = key();
    await a.take(k1, 1, 60_000);
    expect((await a.take(k1, 1, 60_000)).allowed).toBe(false);
    expect((await a.take(k2, 1, 60_000)).allowed).toBe(true);
  });
});

/**
 * Expired hits are deleted in the background (at most once a second, then only the range that expired
 * since the last sweep), and only the store's own: another store on the database, a test file or an
 * environment with its own prefix and clock, keeps its rows.
 */
describe.each(databases())('database counter store on $name: sweeping expired hits', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  const rowsOf = async (prefix: string) =>
    Number(
      (
        await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM rate_counter_hit WHERE left(key, length($1)) = $1',
          [prefix],
        )
      ).rows[0]?.n,
    );
  /** The sweep is not waited for by the take that starts it: poll until it has run. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await check()).toBe(true);
  };

  it("deletes its own expired hits, a second's worth at a time, and leaves live hits and other stores' rows", async () => {
    const prefix = `test-${randomUUID()}:`;
    const otherPrefix = `test-${randomUUID()}:`;
    const clock = new ManualClock();
    const store = databaseCounterStore(db, clock, prefix);
    const other = databaseCounterStore(db, new ManualClock(), otherPrefix);

    // Ten one-minute hits and one of an hour, and the other store's ten.
    for (let i = 0; i < 10; i++) await store.take(`k${i}`, 5, 60_000);
    await store.take('long', 5, 3_600_000);
    for (let i = 0; i < 10; i++) await other.take(`k${i}`, 5, 60_000);
    expect(await rowsOf(prefix)).toBe(11);

    // Two minutes on: the next hit finds ten expired; the sweep it starts leaves the live two.
    clock.advance(120_000);
    await store.takeAll([{ key: 'late', limit: 5, windowMs: 60_000 }], async () => undefined);
    await eventually(async () => (await rowsOf(prefix)) === 2);

    // Within the second after a sweep nothing is swept; after it, what expired since is.
    clock.advance(61_000);
    await store.take('later', 5, 60_000);
    await eventually(async () => (await rowsOf(prefix)) === 2); // 'late' swept, 'later' added
    expect(await rowsOf(otherPrefix)).toBe(10);
    const keys = await db.query<{ key: string }>(
      'SELECT key FROM rate_counter_hit WHERE left(key, length($1)) = $1 ORDER BY key',
      [prefix],
    );
    expect(keys.rows.map((r) => r.key)).toEqual([`${prefix}later`, `${prefix}long`]);
    await db.query('DELETE FROM rate_counter_hit WHERE key LIKE $1 OR key LIKE $2', [
      `${prefix}%`,
      `${otherPrefix}%`,
    ]);
  });
});
