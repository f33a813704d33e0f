import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openDb, type Db } from '../platform/db';
import { prepareDatabase } from './prepare';

const url = process.env.DATABASE_URL;

function urlOf(database: string): string {
  const u = new URL(url!);
  u.pathname = `/${database}`;
  return u.href;
}

/** Rows in every table of the schema, by table. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const result = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`);
    counts[name] = Number(result.rows[0]!.n);
  }
  return counts;
}

/** Instances of the start-up's own pool on one database (no statement timeout, three connections). */
const instancePool = (database: string) =>
  openDb({ kind: 'postgres', url: urlOf(database), max: 3, statementTimeoutMs: 0 });

describe.skipIf(!url)('starting instances on PostgreSQL', () => {
  it('three instances started together on a fresh database all become ready, with one copy of every seeded row', async () => {
    const admin = await openDb({ kind: 'postgres', url: url!, max: 1 });
    const suffix = randomBytes(6).toString('hex');
    const together = `portal_start_together_${suffix}`;
    const oneByOne = `portal_start_one_by_one_${suffix}`;
    await admin.exec(`CREATE DATABASE ${together}`);
    await admin.exec(`CREATE DATABASE ${oneByOne}`);
    try {
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: urlOf(together) });

      const instances = await Promise.all([1, 2, 3].map(() => instancePool(together)));
      const started = await Promise.allSettled(instances.map((db) => prepareDatabase(db, config)));
      await Promise.all(instances.map((db) => db.close()));
      expect(
        started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ready')),
        'every instance becomes ready',
      ).toEqual(['ready', 'ready', 'ready']);

      // The same three starts one after another: what the database holds must be the same.
      const sequential = await instancePool(oneByOne);
      for (let i = 0; i < 3; i += 1) await prepareDatabase(sequential, config);
      const expected = await rowCounts(sequential);
      await sequential.close();

      const inspect = await instancePool(together);
      const actual = await rowCounts(inspect);
      await inspect.close();
      expect(expected['billing_account']).toBeGreaterThan(0);
      expect(actual).toEqual(expected);
    } finally {
      await admin.exec(`DROP DATABASE IF EXISTS ${together} WITH (FORCE)`);
      await admin.exec(`DROP DATABASE IF EXISTS ${oneByOne} WITH (FORCE)`);
      await admin.close();
    }
  }, 300_000);
});
