import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { databases } from '../../test/helpers';
import { DatabaseUnavailableError, migrate, openDb, splitSql, type Db } from './db';

for (const { name, open } of databases()) {
  describe(`database layer on ${name}`, () => {
    const opened: Db[] = [];
    const cleanup: Array<() => Promise<void>> = [];
    /** One connection for the describe (opening a PGlite copy costs a second); `fresh` for a second one. */
    async function connect(fresh = false) {
      if (!fresh && opened[0]) return opened[0];
      const db = await open();
      opened.push(db);
      return db;
    }
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step();
      for (const db of opened) await db.close();
    });

    /** Migrations in a temp dir, with names unique to this run so concurrent runs never collide. */
    async function migrationsDir(db: Db) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
      const tag = randomBytes(4).toString('hex');
      const table = `probe_${tag}`;
      const files: string[] = [];
      cleanup.push(async () => {
        await rm(dir, { recursive: true, force: true });
        if (name === 'postgres') {
          await db.exec(`DROP TABLE IF EXISTS ${table}; DROP FUNCTION IF EXISTS ${table}_touch()`);
          await db.query('DELETE FROM schema_migrations WHERE id = ANY($1)', [files]);
        }
      });
      return {
        table,
        async add(n: string, sql: string) {
          const file = `${n}_probe_${tag}.sql`;
          files.push(file);
          await writeFile(path.join(dir, file), sql);
          return file;
        },
        dir,
      };
    }

    it('runs the real migrations idempotently: a second run applies nothing', async () => {
      const db = await connect();
      expect(await migrate(db)).toEqual([]);
      const recorded = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(recorded.rows.map((r) => r.id)).toContain('001_platform.sql');
    });

    it('applies each new migration once, in order, and only the new ones', async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      const first = await m.add(
        '001',
        `-- a comment; with a semicolon
         CREATE TABLE ${m.table} (id int PRIMARY KEY, note text NOT NULL DEFAULT 'it''s; fine');
         CREATE FUNCTION ${m.table}_touch() RETURNS trigger AS $$ BEGIN NEW.note := NEW.note || ';'; RETURN NEW; END; $$ LANGUAGE plpgsql;`,
      );
      const second = await m.add('002', `INSERT INTO ${m.table} (id) VALUES (1);`);
      expect(await migrate(db, m.dir)).toEqual([first, second]);
      expect(await migrate(db, m.dir)).toEqual([]);
      const third = await m.add('003', `INSERT INTO ${m.table} (id) VALUES (2);`);
      expect(await migrate(db, m.dir)).toEqual([third]);
      const rows = await db.query<{ id: number; note: string }>(
        `SELECT id, note FROM ${m.table} ORDER BY id`,
      );
      expect(rows.rows).toEqual([
        { id: 1, note: "it's; fine" },
        { id: 2, note: "it's; fine" },
      ]);
    });

    it('applies a migration once when two instances start together', async () => {
      const a = await connect();
      // Two pools on PostgreSQL; on PGlite a second instance could not open the same database.
      const b = name === 'postgres' ? await connect(true) : a;
      const m = await migrationsDir(a);
      const file = await m.add(
        '001',
        `CREATE TABLE ${m.table} (id int PRIMARY KEY); INSERT INTO ${m.table} VALUES (1);`,
      );
      const [ranA, ranB] = await Promise.all([migrate(a, m.dir), migrate(b, m.dir)]);
      expect([...ranA, ...ranB]).toEqual([file]);
      expect((await a.query(`SELECT * FROM ${m.table}`)).rowCount).toBe(1);
    });

    it('runs a no-transaction migration statement by statement and completes one that stopped halfway', async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      await m.add(
        '001',
        `CREATE TABLE ${m.table} (id int PRIMARY KEY, code text); INSERT INTO ${m.table} VALUES (1, 'a'), (2, 'a');`,
      );
      await migrate(db, m.dir);
      const index = `${m.table}_code_idx`;
      const build = await m.add(
        '002',
        `-- migrate: no-transaction\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ${index} ON ${m.table} (code);`,
      );
      // The duplicate stops the build halfway: PostgreSQL leaves the index behind, INVALID.
      await expect(migrate(db, m.dir)).rejects.toThrow(`Migration ${build} failed`);
      const valid = async () =>
        (
          await db.query<{ indisvalid: boolean }>(
            'SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)',
            [index],
          )
        ).rows.map((r) => r.indisvalid);
      expect(await valid()).toEqual([false]);
      expect((await db.query('SELECT 1 FROM schema_migrations WHERE id = $1', [build])).rowCount).toBe(0);

      await db.query(`UPDATE ${m.table} SET code = 'b' WHERE id = 2`);
      expect(await migrate(db, m.dir)).toEqual([build]);
      expect(await valid()).toEqual([true]);
      await expect(db.query(`INSERT INTO ${m.table} VALUES (3, 'a')`)).rejects.toThrow();
      expect(await migrate(db, m.dir)).toEqual([]);
    });

    it('leaves no trace of a failing migration and names it', async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      const bad = await m.add(
        '001',
        `CREATE TABLE ${m.table} (id int); INSERT INTO ${m.table} VALUES ('not a number');`,
      );
      await expect(migrate(db, m.dir)).rejects.toThrow(`Migration ${bad} failed`);
      const table = await db.query('SELECT 1 FROM information_schema.tables WHERE table_name = $1', [
        m.table,
      ]);
      expect(table.rowCount).toBe(0);
      const recorded = await db.query('SELECT 1 FROM schema_migrations WHERE id = $1', [bad]);
      expect(recorded.rowCount).toBe(0);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      await m.add('001', `CREATE TABLE ${m.table} (id int PRIMARY KEY);`);
      await migrate(db, m.dir);
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${m.table} VALUES ($1)`, [1]);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${m.table} VALUES ($1)`, [2]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const rows = await db.query<{ id: number }>(`SELECT id FROM ${m.table}`);
      expect(rows.rows).toEqual([{ id: 1 }]);
    });

    it("keeps a plain query out of another caller's open transaction", async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      await m.add('001', `CREATE TABLE ${m.table} (id int PRIMARY KEY);`);
      await migrate(db, m.dir);
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const rolledBack = db
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO ${m.table} VALUES (1)`);
          await sleep(150);
          throw new Error('roll back');
        })
        .catch(() => 'rolled back');
      await sleep(30);
      // Issued while the transaction is open; must not be rolled back with it.
      await db.query(`INSERT INTO ${m.table} VALUES (2)`);
      expect(await rolledBack).toBe('rolled back');
      const rows = await db.query<{ id: number }>(`SELECT id FROM ${m.table} ORDER BY id`);
      expect(rows.rows).toEqual([{ id: 2 }]);
    });

    it('runs db.query and a nested db.transaction inside a transaction without deadlock', async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      await m.add('001', `CREATE TABLE ${m.table} (id int PRIMARY KEY);`);
      await migrate(db, m.dir);
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${m.table} VALUES (1)`);
        await db.query(`SELECT count(*) FROM ${m.table}`);
        await db.transaction((inner) => inner.query(`INSERT INTO ${m.table} VALUES (2)`));
      });
      expect((await db.query(`SELECT id FROM ${m.table}`)).rowCount).toBe(2);
    });

    it('counts rows as pg does: returned by a query, changed by a write', async () => {
      const db = await connect();
      const m = await migrationsDir(db);
      await m.add('001', `CREATE TABLE ${m.table} (id int PRIMARY KEY, n int NOT NULL DEFAULT 0);`);
      await migrate(db, m.dir);
      expect((await db.query(`INSERT INTO ${m.table} (id) VALUES (1), (2), (3)`)).rowCount).toBe(3);
      expect((await db.query(`SELECT * FROM ${m.table} WHERE id > $1`, [1])).rowCount).toBe(2);
      expect((await db.query(`SELECT * FROM ${m.table} WHERE id > 9`)).rowCount).toBe(0);
      expect((await db.query(`UPDATE ${m.table} SET n = n + 1 WHERE id < 3`)).rowCount).toBe(2);
      const returning = await db.query(`UPDATE ${m.table} SET n = n + 1 WHERE id = 3 RETURNING id`);
      expect(returning.rowCount).toBe(1);
      expect((await db.query(`DELETE FROM ${m.table} WHERE id = 9`)).rowCount).toBe(0);
      const inTx = await db.transaction((tx) => tx.query(`SELECT * FROM ${m.table}`));
      expect(inTx.rowCount).toBe(3);
    });

    it('gives the same JavaScript values as the other database', async () => {
      const db = await connect();
      const { rows } = await db.query(
        `SELECT 42::int8 AS big, count(*) AS counted, 9007199254740993::int8 AS huge, 612.40::numeric AS money,
                '2026-03-01'::date AS day, '2026-03-01T10:00:00Z'::timestamptz AS at, '{"a":[1]}'::jsonb AS doc,
                true AS yes, NULL::text AS nothing
           FROM (VALUES (1), (2)) AS v(x)`,
      );
      expect(rows[0]).toEqual({
        big: 42,
        counted: 2,
        huge: 9007199254740993n,
        money: '612.40',
        day: new Date('2026-03-01T00:00:00Z'),
        at: new Date('2026-03-01T10:00:00Z'),
        doc: { a: [1] },
        yes: true,
        nothing: null,
      });
    });
    it('delivers a notification to every listener when its transaction commits, and none of one rolled back', async () => {
      const db = await connect();
      const channel = `probe_${randomBytes(4).toString('hex')}`;
      const heard: string[] = [];
      const heardToo: string[] = [];
      const stop = await db.listen!(channel, (payload) => heard.push(payload));
      const stopToo = await db.listen!(channel, (payload) => heardToo.push(payload));
      try {
        await expect(
          db.transaction(async (tx) => {
            await tx.query('SELECT pg_notify($1, $2)', [channel, 'rolled back']);
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        await db.transaction(async (tx) => {
          await tx.query('SELECT pg_notify($1, $2)', [channel, 'one']);
          // Not before the commit.
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(heard).toEqual([]);
        });
        await vi.waitFor(() => expect(heard).toEqual(['one']), { timeout: 2000, interval: 10 });
        expect(heardToo).toEqual(['one']);
        await stopToo();
        await db.query('SELECT pg_notify($1, $2)', [channel, 'two']);
        await vi.waitFor(() => expect(heard).toEqual(['one', 'two']), { timeout: 2000, interval: 10 });
        expect(heardToo).toEqual(['one']);
      } finally {
        await stop();
        await stopToo();
      }
    });
  });
}

describe.runIf(process.env.DATABASE_URL)('listening on PostgreSQL', () => {
  it('listens again after its connection is lost, telling its listeners of the gap', async () => {
    const db = await openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 2 });
    const channel = `probe_${randomBytes(4).toString('hex')}`;
    const heard: string[] = [];
    let gaps = 0;
    try {
      await db.listen!(
        channel,
        (payload) => heard.push(payload),
        () => (gaps += 1),
      );
      // The listening session is the one LISTENing on the channel: end it, as a restart of the server would.
      const ended = await db.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND query = $1`,
        [`LISTEN ${channel}`],
      );
      expect(ended.rows).toEqual([{ ended: true }]);
      await vi.waitFor(() => expect(gaps).toBe(1), { timeout: 5000, interval: 50 });
      await db.query('SELECT pg_notify($1, $2)', [channel, 'after the gap']);
      await vi.waitFor(() => expect(heard).toEqual(['after the gap']), { timeout: 2000, interval: 10 });
    } finally {
      await db.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('prepared statements on PostgreSQL', () => {
  const url = process.env.DATABASE_URL!;
  const table = `prepared_${randomBytes(4).toString('hex')}`;
  let db: Db;
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${table}`);
    await db?.close();
  });

  it('plans a statement once per connection, and carries on when a migration changes the table under it', async () => {
    // One connection, so the second run finds the statement prepared.
    db = await openDb({ kind: 'postgres', url, max: 1 });
    await db.exec(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
    await db.query(`INSERT INTO ${table} VALUES ($1, $2)`, [1, 'one']);
    const read = `SELECT * FROM ${table} WHERE id = $1`;
    expect((await db.query(read, [1])).rows).toEqual([{ id: 1, name: 'one' }]);
    const prepared = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1',
      [read],
    );
    expect(prepared.rows[0]!.n).toBe(1);

    // Another instance's migration adds a column: the prepared plan no longer fits its result.
    await db.exec(`ALTER TABLE ${table} ADD COLUMN note text`);
    expect((await db.query(read, [1])).rows).toEqual([{ id: 1, name: 'one', note: null }]);
  });

  it('answers 503 for a stale plan inside a transaction, and the retry succeeds', async () => {
    const read = `SELECT * FROM ${table} WHERE id = $1 AND true`;
    await db.transaction((tx) => tx.query(read, [1]));
    await db.exec(`ALTER TABLE ${table} ADD COLUMN extra int`);
    await expect(db.transaction((tx) => tx.query(read, [1]))).rejects.toBeInstanceOf(
      DatabaseUnavailableError,
    );
    const again = await db.transaction((tx) => tx.query(read, [1]));
    expect(again.rows).toEqual([{ id: 1, name: 'one', note: null, extra: null }]);
  });

  it('runs every statement unnamed when turned off', async () => {
    const plain = await openDb({ kind: 'postgres', url, max: 1, preparedStatements: false });
    try {
      await plain.query(`SELECT name FROM ${table} WHERE id = $1`, [1]);
      const prepared = await plain.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_prepared_statements',
      );
      expect(prepared.rows[0]!.n).toBe(0);
    } finally {
      await plain.close();
    }
  });
});

describe('splitSql', () => {
  it('splits on semicolons outside quotes, comments and dollar-quoted bodies', () => {
    expect(
      splitSql(`CREATE TABLE a (x text DEFAULT 'a;b'); -- note; here
        CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
        DO $$ BEGIN PERFORM 1; END $$;`),
    ).toEqual([
      "CREATE TABLE a (x text DEFAULT 'a;b')",
      'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql',
      'DO $$ BEGIN PERFORM 1; END $$',
    ]);
  });
});
