import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../src/config';
import { ManualClock } from '../src/platform/clock';
import type { Db } from '../src/platform/db';
import { migrate, openDb, wrapPglite } from '../src/platform/db';
import { seedAll } from '../src/db/seed';
import { createServices } from '../src/modules';
import type { ModuleContext } from '../src/platform/module';
import type { Services } from '../src/platform/services';

/**
 * Builds one migrated, seeded PGlite database and saves it as a tarball. Every test then opens its own
 * in-memory copy (about a second) instead of running initdb, migrations and seeds again (several).
 * When DATABASE_URL is set, the same schema and seed are also applied to that PostgreSQL server.
 */
export default async function setup(project: TestProject) {
  const [removeTemplate] = await Promise.all([provideTemplate(project), prepareServer()]);
  // Vitest calls the returned function when the run ends.
  return removeTemplate;
}

/** The seeded PGlite template, saved for this project's test files; returns its removal. */
export async function provideTemplate(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
  const file = path.join(dir, 'template.tar.gz');
  const pg = await PGlite.create();
  const db = wrapPglite(pg);
  await prepare(db);
  const dump = await pg.dumpDataDir('gzip');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  project.provide('pgliteTemplate', file);
  return () => rm(dir, { recursive: true, force: true });
}

/** The same schema and seed on the PostgreSQL server, when DATABASE_URL names one. */
async function prepareServer(): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  // The embedded template is built in this process at the same time, and PGlite holds the event loop while
  // it works: a statement answered meanwhile is read late. A setup's statements get a minute, not the 5 s
  // a request gets, so a busy machine does not fail the run with a "Query read timeout".
  const server = await openDb({
    kind: 'postgres',
    url: process.env.DATABASE_URL,
    max: 2,
    statementTimeoutMs: 60_000,
  });
  try {
    await prepare(server);
  } finally {
    await server.close();
  }
}

/** Migrates and seeds a database as the tests expect it (also for a PostgreSQL database of a test's own). */
export async function prepare(db: Db) {
  await migrate(db);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const ctx: ModuleContext = { config, db, clock: new ManualClock(), services: {} as Services };
  await createServices(ctx);
  // Every seed, whatever seed_state says: a shared PostgreSQL test database gets its demo data back.
  await seedAll(ctx, { force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
