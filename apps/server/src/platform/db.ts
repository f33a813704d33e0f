import { mkdir } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/** Anything that runs SQL: the database itself or an open transaction. Parameters are $1, $2, ... */
export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: T[]; rowCount: number }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations, seeds). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export type DbOptions =
  { kind: 'postgres'; url: string; max?: number } | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export async function openDb(options: DbOptions): Promise<Db> {
  return options.kind === 'postgres' ? openPostgres(options.url, options.max) : openPglite(options);
}

async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  return wrapPglite(
    await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    }),
  );
}

/** Our Db interface over an open PGlite instance. */
export function wrapPglite(pg: PGlite): Db {
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
}

async function openPostgres(url: string, max = 10): Promise<Db> {
  const { default: pgModule } = await import('pg');
  // Keep int8 and numeric as strings is pg's default; timestamps arrive as Date, as with PGlite.
  const pool: Pool = new pgModule.Pool({ connectionString: url, max });
  pool.on('error', () => {
    /* idle client errors are reported on the next query */
  });
  const wrap = (q: Pool | PoolClient): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query(sql, params as unknown[]);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');

/**
 * Forward-only migrations: every `NNN_name.sql` file not yet recorded in schema_migrations runs once,
 * in file-name order, each in its own transaction. An advisory lock makes concurrent starts of several
 * instances against one PostgreSQL server safe.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const file of files) {
    const sql = readFileSync(path.join(migrationsDir, file), 'utf8');
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(727274)');
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [file]);
      if (done.rowCount > 0) return false;
      for (const statement of splitSql(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}

/**
 * Splits a migration into statements so each runs through the parameterised query path inside the
 * transaction. Handles quoted strings and $$-quoted bodies (functions, DO blocks).
 */
export function splitSql(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  let dollarTag: string | null = null;
  let inSingle = false;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (!inSingle && !dollarTag && ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      continue;
    }
    if (!inSingle && ch === '$') {
      const match = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (match) {
        const tag = match[0];
        if (dollarTag === null) dollarTag = tag;
        else if (dollarTag === tag) dollarTag = null;
        current += tag;
        i += tag.length;
        continue;
      }
    }
    if (!dollarTag && ch === "'") inSingle = !inSingle;
    if (!inSingle && !dollarTag && ch === ';') {
      if (current.trim()) statements.push(current.trim());
      current = '';
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
