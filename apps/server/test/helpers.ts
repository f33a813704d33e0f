import { createHash, randomBytes, randomUUID } from 'node:crypto';
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

const isolated: { template?: Promise<string>; names: string[] } = { names: [] };

const databaseUrlOf = (name: string) => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.href;
};

async function adminExec(sql: string): Promise<void> {
  const admin = await openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 1 });
  try {
    await admin.exec(sql);
  } finally {
    await admin.close();
  }
}

/**
 * A PostgreSQL database of one test's own, migrated and seeded: a copy of a template made once per test
 * file (CREATE DATABASE ... TEMPLATE, a fraction of a second), as the embedded database gives each test a
 * fresh copy. For tests whose passes and queues act on every row (a shared database would give them
 * other files' rows). `dropIsolatedDatabases` in the file's afterAll removes them all.
 */
async function isolatedPostgres(): Promise<Db> {
  isolated.template ??= (async () => {
    const name = `portal_tmpl_${randomBytes(6).toString('hex')}`;
    await adminExec(`CREATE DATABASE ${name}`);
    isolated.names.push(name);
    const db = await openDb({
      kind: 'postgres',
      url: databaseUrlOf(name),
      max: 2,
      statementTimeoutMs: 60_000,
    });
    try {
      const { prepare } = await import('./global-setup');
      await prepare(db);
    } finally {
      await db.close();
    }
    return name;
  })();
  const template = await isolated.template;
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await adminExec(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  isolated.names.push(name);
  const db = await openDb({ kind: 'postgres', url: databaseUrlOf(name), max: 4 });
  urlOfDb.set(db, databaseUrlOf(name));
  return db;
}

const urlOfDb = new WeakMap<Db, string>();

/**
 * The same database for a second instance: on PostgreSQL a pool of its own (its own connections and its
 * own listening session, as another server would have); the embedded database is one process's, so the
 * same one (a second app in this process).
 */
export async function sameDatabaseAgain(db: Db): Promise<Db> {
  const url = urlOfDb.get(db);
  return url ? openDb({ kind: 'postgres', url, max: 4 }) : db;
}

/** Drops the databases `isolatedDatabases` made in this file (call in afterAll, after closing them). */
export async function dropIsolatedDatabases(): Promise<void> {
  for (const name of isolated.names.splice(0).reverse()) {
    await adminExec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  isolated.template = undefined;
}

/**
 * The databases a test runs on, each open a database of its own: a fresh embedded copy, and when
 * DATABASE_URL is set a fresh PostgreSQL database on that server (see isolatedPostgres).
 */
export function isolatedDatabases(): Array<{ name: string; open: () => Promise<Db> }> {
  return [
    { name: 'pglite', open: createTestDb },
    ...(process.env.DATABASE_URL ? [{ name: 'postgres', open: isolatedPostgres }] : []),
  ];
}
