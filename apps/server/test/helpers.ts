import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { expect, inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { ManualClock } from '../src/platform/clock';
import { openDb, type Db } from '../src/platform/db';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
}

let template: Blob | undefined;

/**
 * Rate-limit counters of the running test file: test files share a PostgreSQL server (and Redis), and every
 * test clock starts at the same instant, so without their own prefix they would count each other's
 * sign-ins, in this run and in every earlier one. The apps of one file share it (two instances count as
 * one). Files run one after another in a worker share this module (no isolation), so the prefix is the
 * file's, not the module's.
 */
const runId = randomUUID();
const counterPrefix = (): string => {
  const file = expect.getState().testPath ?? '';
  return `test-${runId}-${createHash('sha256').update(file).digest('hex').slice(0, 16)}:`;
};

/** A fresh in-memory copy of the migrated, seeded template database. */
export async function createTestDb(): Promise<Db> {
  if (!template) {
    const bytes = await readFile(inject('pgliteTemplate'));
    template = new Blob([bytes]);
  }
  return openDb({ kind: 'pglite', loadDataDir: template });
}

/**
 * The real app on a fresh copy of the seeded database, with a manual clock. `env` overrides
 * configuration (for example base URLs or REDIS_URL); `logger` gives logging options (none by default).
 * Call close() in afterEach/afterAll.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { db?: Db; clock?: ManualClock; logger?: (config: Config) => object } = {},
): Promise<TestContext> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    REDIS_KEY_PREFIX: counterPrefix(),
    // Test files share a PostgreSQL database, each with its own clock: one's housekeeping would delete
    // rows another's clock still counts. housekeeping.test.ts runs it by hand.
    HOUSEKEEPING_INTERVAL_MINUTES: '0',
    ...env,
  });
  const db = options.db ?? (await createTestDb());
  const clock = options.clock ?? new ManualClock();
  const app = await buildApp({ config, db, clock, logger: options.logger?.(config) ?? false });
  await app.ready();
  return {
    app,
    db,
    clock,
    config,
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}

/**
 * The databases a data-layer test runs on: the embedded one always (a fresh copy per open), and the
 * PostgreSQL server too when DATABASE_URL is set. That one is shared by every test file, in this run and
 * later ones: a test there either works inside a transaction it rolls back, or puts back what it changed
 * and counts only its own rows.
 */
export function databases(): Array<{ name: string; open: () => Promise<Db> }> {
  const list = [{ name: 'pglite', open: createTestDb }];
  const url = process.env.DATABASE_URL;
  if (url) list.push({ name: 'postgres', open: () => openDb({ kind: 'postgres', url, max: 4 }) });
  return list;
}
