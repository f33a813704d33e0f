import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { Client as PgClient, Pool, PoolClient } from 'pg';
import { HttpError } from './errors';

/** Anything that runs SQL: the database itself or an open transaction. Parameters are $1, $2, ... */
export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: T[]; rowCount: number }>;
}

/** The connections of a database's pool, for the metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  /** Queries and transactions waiting for a connection. */
  waiting: number;
}

/** Stops a listen(). */
export type Unlisten = () => Promise<void>;

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * The name a statement text runs under as a named prepared statement (PostgreSQL with
   * DATABASE_PREPARED_STATEMENTS); undefined when it runs unnamed. For bench:api's SQL capture.
   */
  statementName?(sql: string): string | undefined;
  /**
   * The pool's connections now: PostgreSQL's pool; the embedded database is one session (total 1).
   * Optional for stand-ins that tests wrap around a database.
   */
  poolStats?(): PoolStats;
  /** Runs fn in one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL's LISTEN: `handler` gets the payload of each `pg_notify(channel, payload)` once the
   * transaction that sent it commits, on every instance listening (PostgreSQL delivers a notification
   * only at commit, and never one of a transaction rolled back). `onGap` is called when some may have
   * been missed (the listening connection was lost and is back), so whatever they keep fresh is read
   * again. Resolves once listening, or once a first attempt failed (it keeps trying in the background);
   * answers a function that stops listening. Optional for stand-ins that tests wrap around a database.
   */
  listen?(channel: string, handler: (payload: string) => void, onGap?: () => void): Promise<Unlisten>;
  /**
   * Runs fn on one session of its own, outside any transaction and without a statement timeout: for a
   * migration that builds an index concurrently (which cannot run in a transaction, and takes as long as
   * the table is big). Optional for stand-ins that tests wrap around a database.
   */
  session?<T>(fn: (session: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations, seeds). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

interface PostgresOptions {
  kind: 'postgres';
  url: string;
  max?: number;
  /** How long to wait for a connection (a new one, or a free one from the pool). */
  connectTimeoutMs?: number;
  /** How long one statement may run (on the server) or go unanswered (a frozen server). */
  statementTimeoutMs?: number;
  /**
   * Named prepared statements (default true): each statement text is parsed and planned once per
   * connection instead of on every call (decision 030). Off for a pooler in front of PostgreSQL that
   * cannot keep them (PgBouncer before 1.21 in transaction mode).
   */
  preparedStatements?: boolean;
}

/** Most distinct statement texts given a name; any beyond are run unnamed (text built at run time). */
const MAX_PREPARED_STATEMENTS = 1000;

/**
 * The name a statement text is prepared under on each connection (a digest of the text, the same on
 * every instance), or undefined to run it unnamed. A text whose prepared plan PostgreSQL refused after
 * a schema change ("cached plan must not change result type", from a migration by a newer instance
 * during a rolling deployment) is run unnamed from then on.
 */
function statementNames(limit = MAX_PREPARED_STATEMENTS) {
  const names = new Map<string, string | null>();
  return {
    nameOf(sql: string): string | undefined {
      const known = names.get(sql);
      if (known !== undefined) return known ?? undefined;
      if (names.size >= limit) return undefined;
      const name = `p_${createHash('sha1').update(sql).digest('base64url')}`;
      names.set(sql, name);
      return name;
    },
    forget(sql: string): void {
      names.set(sql, null);
    },
  };
}

/** PostgreSQL refused a prepared statement's plan because a table it reads has changed shape. */
function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === '0A000' &&
    /cached plan must not change result type/.test(error.message)
  );
}

export type DbOptions = PostgresOptions | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export async function openDb(options: DbOptions): Promise<Db> {
  return options.kind === 'postgres' ? openPostgres(options) : openPglite(options);
}

/** Seconds a client is asked to wait before retrying when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database is unreachable, refused the connection, or did not answer in time: a 503 with
 * Retry-After (in the envelope of whichever service asked), never a 500. The transaction it happened in
 * is rolled back by PostgreSQL, so nothing is half written.
 */
export class DatabaseUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable. Please try again shortly.',
      undefined,
      { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
    this.cause = cause;
  }
}

/** Network error codes of a connection that failed or broke. */
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Whether an error means the database could not be reached or did not answer in time, rather than a
 * fault of the statement: network errors, pg's own connect and read timeouts, a broken connection,
 * PostgreSQL's connection exceptions (class 08), statement timeout and shutdown (57014, 57P01-57P03),
 * too many connections (53300), and a closed embedded database.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof DatabaseUnavailableError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (networkCodes.has(code)) return true;
    if (/^08/.test(code) || code === '57014' || /^57P0[123]$/.test(code) || code === '53300') return true;
  }
  return /connection timeout|timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|Client was closed|Cannot use a pool after calling end|PGlite is closed/i.test(
    error.message,
  );
}

/** Rethrows a database fault as DatabaseUnavailableError, any other error as it is. */
function unavailableOr(error: unknown): never {
  if (isDatabaseUnavailable(error) && !(error instanceof DatabaseUnavailableError)) {
    throw new DatabaseUnavailableError(error);
  }
  throw error;
}

/**
 * Whether dir holds an initialised PGlite database. Creating one (initdb) costs seconds and a large
 * memory peak, so the server does it once, in a short-lived child process (scripts/prepare-db.ts).
 */
export function isPgliteDataDir(dir: string): boolean {
  return existsSync(path.join(dir, 'PG_VERSION'));
}

const PGLITE_SHARED_BUFFERS = '32MB';

async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  return wrapPglite(
    await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      // PostgreSQL's default 128 MB of shared buffers costs about 100 MB of resident memory more than
      // 32 MB and buys nothing for a database of a few megabytes.
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    }),
  );
}

/** Our Db interface over an open PGlite instance. */
export function wrapPglite(pg: PGlite): Db {
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, params as unknown[]).catch(unavailableOr);
      // As pg reports it: rows returned for a query that returns rows (PGlite says 0 affected for a
      // SELECT), rows changed otherwise.
      const rowCount = result.fields.length > 0 ? result.rows.length : (result.affectedRows ?? 0);
      return { rows: result.rows, rowCount };
    },
  });
  /*
   * PGlite is one session and queues every top-level query and transaction behind the open one. A
   * db.query or db.transaction called inside a transaction's callback (instead of tx.query) would wait
   * for that transaction forever; here it runs in the open transaction instead (on PostgreSQL it would
   * run on another connection), so such code is slow to go wrong rather than hanging the server.
   */
  const openTransaction = new AsyncLocalStorage<Queryable>();
  const direct = wrap(pg);
  /** Top-level queries and transactions asked for and not yet done: one runs, the others wait. */
  let pending = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    pending += 1;
    try {
      return await work();
    } finally {
      pending -= 1;
    }
  };
  return {
    kind: 'pglite',
    poolStats: () => ({ total: 1, idle: pending === 0 ? 1 : 0, waiting: Math.max(0, pending - 1) }),
    query: (sql, params) => {
      const open = openTransaction.getStore();
      return open ? open.query(sql, params) : counted(() => direct.query(sql, params));
    },
    transaction: (fn) => {
      const open = openTransaction.getStore();
      if (open) return fn(open);
      // A closed database fails here, before any query: the same 503 as a query would give.
      return counted(() =>
        pg.transaction((tx) => {
          const queryable = wrap(tx);
          return openTransaction.run(queryable, () => fn(queryable));
        }),
      ).catch(unavailableOr);
    },
    // The one session: a concurrent index build runs here as anywhere else (it waits for nobody).
    session: (fn) => counted(() => fn(direct)),
    exec: async (sql) => {
      const open = openTransaction.getStore();
      if (open) {
        for (const statement of splitSql(sql)) await open.query(statement);
        return;
      }
      await pg.exec(sql);
    },
    // One process: the notifications of its own commits, delivered as each commits (never a gap).
    listen: async (channel, handler) => {
      const unlisten = await pg.listen(listenChannel(channel), handler);
      return async () => {
        if (!pg.closed) await unlisten();
      };
    },
    close: () => pg.close(),
  };
}

/** A channel name as LISTEN takes it unquoted: lower case letters, digits and underscores. */
function listenChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
}

/** PostgreSQL type oids whose text form pg and PGlite would otherwise parse differently. */
const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

/**
 * Parses values as PGlite does, so code and tests see the same JavaScript values on both databases:
 * int8 (bigserial ids, count(*)) as a number while it is exact (a bigint beyond), and date/timestamp
 * text through `new Date(text)` (a date is UTC midnight, not the server's local midnight).
 */
function pgliteCompatibleParser(oid: number, fallback: (oid: number) => (text: string) => unknown) {
  if (oid === INT8) {
    return (text: string) => {
      const n = BigInt(text);
      return n < BigInt(Number.MIN_SAFE_INTEGER) || n > BigInt(Number.MAX_SAFE_INTEGER) ? n : Number(n);
    };
  }
  if (oid === DATE || oid === TIMESTAMP || oid === TIMESTAMPTZ) {
    return (text: string) =>
      text === 'infinity' ? Infinity : text === '-infinity' ? -Infinity : new Date(text);
  }
  return fallback(oid);
}

async function openPostgres(options: PostgresOptions): Promise<Db> {
  const {
    url,
    max = 10,
    connectTimeoutMs = 3000,
    statementTimeoutMs = 5000,
    preparedStatements = true,
  } = options;
  const names = preparedStatements ? statementNames() : undefined;
  const { default: pgModule } = await import('pg');
  const types = {
    // pg's typing of getTypeParser is overloaded per format; we only ever receive text values.
    getTypeParser: ((oid: number) =>
      pgliteCompatibleParser(oid, (o) => pgModule.types.getTypeParser(o, 'text'))) as never,
  };
  const pool: Pool = new pgModule.Pool({
    connectionString: url,
    max,
    // A stopped server fails at once; one that accepts and never answers (frozen, a black-holed
    // address) must not hold the request longer than this, nor may waiting for a free connection.
    connectionTimeoutMillis: connectTimeoutMs,
    // The server cancels a statement running longer (57014); the client gives up as well on one the
    // server does not answer at all (frozen), and the pool then drops that connection.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs,
    keepAlive: true,
    types,
  });
  pool.on('error', () => {
    /* idle client errors are reported on the next query */
  });
  const listener = postgresListener(pgModule, url, connectTimeoutMs);
  const wrap = (q: Pool | PoolClient, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const values = params as unknown[];
      const name = names?.nameOf(sql);
      const result = await (name ? q.query({ name, text: sql, values }) : q.query(sql, values)).catch(
        (error: unknown) => {
          if (!name || !isStalePlan(error)) return unavailableOr(error);
          names!.forget(sql);
          // Outside a transaction the statement is simply run again, unnamed; inside one, the
          // transaction is already aborted: a 503 the client retries, which then succeeds.
          if (inTransaction) throw new DatabaseUnavailableError(error);
          return q.query(sql, values).catch(unavailableOr);
        },
      );
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
  });
  return {
    kind: 'postgres',
    ...(names ? { statementName: (sql: string) => names.nameOf(sql) } : {}),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ...wrap(pool, false),
    async transaction(fn) {
      const client = await pool.connect().catch(unavailableOr);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client, true));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          // The connection is gone or frozen: PostgreSQL rolls the transaction back when the session
          // ends; the pool must not hand this connection out again.
          broken = error as Error;
          unavailableOr(error);
        }
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async session(fn) {
      // A connection outside the pool: the pool's statement and read timeouts would stop a long build.
      const client = new pgModule.Client({
        connectionString: url,
        connectionTimeoutMillis: connectTimeoutMs,
        keepAlive: true,
        types,
      });
      client.on('error', () => undefined);
      await client.connect().catch(unavailableOr);
      try {
        await client.query('SET statement_timeout = 0');
        return await fn({
          async query<T>(sql: string, params: readonly unknown[] = []) {
            const result = await client.query(sql, params as unknown[]).catch(unavailableOr);
            return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
          },
        });
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    exec: async (sql) => {
      await pool.query(sql).catch(unavailableOr);
    },
    listen: (channel, handler, onGap) => listener.listen(channel, handler, onGap),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/** Waits before connecting the listening session again: doubling from one second up to half a minute. */
const LISTEN_RETRY_MIN_MS = 1000;
const LISTEN_RETRY_MAX_MS = 30_000;

/**
 * The LISTEN side of a PostgreSQL database: one session of its own per instance (outside the pool, whose
 * connections come and go), opened at the first listen(). When it fails or is lost it is opened again,
 * backing off, and every listener is told of the gap, since notifications sent meanwhile are gone. A
 * pooler in transaction mode (PgBouncer) cannot keep a LISTEN: point DATABASE_URL at PostgreSQL itself,
 * or rely on what each listener falls back to (the guard's half-second check, for example).
 */
function postgresListener(pgModule: { Client: typeof PgClient }, url: string, connectTimeoutMs: number) {
  type Listener = { handler: (payload: string) => void; onGap?: () => void };
  const channels = new Map<string, Set<Listener>>();
  let client: PgClient | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_MIN_MS;
  let closed = false;
  /** Whether notifications may have been missed: a session lost, or listeners waiting for a first one. */
  let missed = false;

  const everyListener = () => [...channels.values()].flatMap((set) => [...set]);
  const lost = (gone: PgClient) => {
    if (client !== gone) return;
    client = undefined;
    missed = true;
    gone.removeAllListeners('notification');
    gone.end().catch(() => undefined);
    schedule();
  };
  const schedule = () => {
    if (closed || retry || channels.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
  };
  const connect = (): Promise<void> =>
    (connecting ??= (async () => {
      const next = new pgModule.Client({
        connectionString: url,
        connectionTimeoutMillis: connectTimeoutMs,
        keepAlive: true,
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      next.on('notification', (message) => {
        for (const listener of channels.get(message.channel) ?? []) listener.handler(message.payload ?? '');
      });
      try {
        await next.connect();
        for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
      } catch {
        next.removeAllListeners('notification');
        await next.end().catch(() => undefined);
        missed = true;
        schedule();
        return;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      retryMs = LISTEN_RETRY_MIN_MS;
      if (missed) for (const listener of everyListener()) listener.onGap?.();
      missed = false;
    })().finally(() => {
      connecting = undefined;
    }));

  return {
    async listen(channel: string, handler: (payload: string) => void, onGap?: () => void): Promise<Unlisten> {
      const name = listenChannel(channel);
      const listener: Listener = { handler, ...(onGap ? { onGap } : {}) };
      const set = channels.get(name) ?? new Set();
      const first = set.size === 0;
      set.add(listener);
      channels.set(name, set);
      if (!client) await connect();
      // (Listening twice is harmless: a session that connected meanwhile may have listened already.)
      const open = client;
      if (open && first) await open.query(`LISTEN ${name}`).catch(() => lost(open));
      return async () => {
        set.delete(listener);
        if (set.size > 0 || channels.get(name) !== set) return;
        channels.delete(name);
        await client?.query(`UNLISTEN ${name}`).catch(() => undefined);
      };
    },
    async close(): Promise<void> {
      closed = true;
      clearTimeout(retry);
      await connecting;
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}

/** Advisory lock key held while migrating; any constant shared by every instance. */
const MIGRATION_LOCK = 727274;

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');

/** How long an instance waits before asking again for the migration lock another instance holds. */
const MIGRATION_LOCK_RETRY_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first line of a migration that runs statement by statement, outside a transaction. */
const NO_TRANSACTION_MARKER = /^--\s*migrate:\s*no-transaction\b/;

/** Whether a migration runs outside a transaction: its first line is `-- migrate: no-transaction`. */
export function runsOutsideTransaction(sql: string): boolean {
  return NO_TRANSACTION_MARKER.test(sql.trimStart());
}

/**
 * Runs fn in a transaction holding the migration lock. The lock is asked for without waiting, and asked
 * again after a pause: an instance waiting inside a transaction would hold a snapshot that a concurrent
 * index build of the instance holding the lock waits for (a deadlock PostgreSQL would break by
 * cancelling one of them).
 */
async function underMigrationLock<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const busy = Symbol('busy');
  for (;;) {
    const result = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_xact_lock(${MIGRATION_LOCK}) AS locked`,
      );
      return rows[0]?.locked ? fn(tx) : busy;
    });
    if (result !== busy) return result as T;
    await sleep(MIGRATION_LOCK_RETRY_MS);
  }
}

/** The index a statement builds concurrently and only if it does not exist, or undefined. */
function concurrentIndexOf(statement: string): string | undefined {
  return /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+("[^"]+"|[\w$.]+)/i.exec(
    statement,
  )?.[1];
}

/**
 * Runs a `-- migrate: no-transaction` migration: each statement on its own, on a session of its own
 * holding the migration lock (a session lock, asked for as underMigrationLock does). A concurrent index
 * build that stopped halfway (a failed start, a deployment cancelled) leaves an INVALID index behind,
 * which `IF NOT EXISTS` would keep: it is dropped first, so running the migration again completes it.
 * Answers whether it ran (false: another instance had recorded it meanwhile).
 */
async function migrateOutsideTransaction(db: Db, file: string, sql: string): Promise<boolean> {
  const onSession = db.session ? db.session.bind(db) : <T>(fn: (q: Queryable) => Promise<T>) => fn(db);
  return onSession(async (session) => {
    const lock = async () =>
      (await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS locked`))
        .rows[0]?.locked === true;
    while (!(await lock())) await sleep(MIGRATION_LOCK_RETRY_MS);
    try {
      const recorded = await session.query('SELECT 1 FROM schema_migrations WHERE id = $1', [file]);
      if (recorded.rowCount > 0) return false;
      for (const statement of splitSql(sql)) {
        const index = concurrentIndexOf(statement);
        if (index) {
          const invalid = await session.query(
            `SELECT 1 FROM pg_index WHERE indexrelid = to_regclass($1) AND NOT indisvalid`,
            [index],
          );
          if (invalid.rowCount > 0) await session.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
        }
        await session.query(statement);
      }
      await session.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file]);
      return true;
    } finally {
      await session.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    }
  });
}

/**
 * Forward-only migrations: every `NNN_name.sql` file not yet recorded in schema_migrations runs once,
 * in file-name order, each in its own transaction (a failing one leaves no trace and stops the start),
 * except one whose first line is `-- migrate: no-transaction` (a concurrent index build, which cannot
 * run in a transaction): its statements run one by one, and it is written to be run again if it stops
 * halfway (docs/operations.md, "Migrations beside the running version").
 * An advisory lock makes concurrent starts of several instances against one PostgreSQL server safe.
 * Returns the files applied now. `dir` is for tests.
 */
export async function migrate(db: Db, dir: string = migrationsDir): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  // Under the same lock as the migrations: two instances starting together must not both create it.
  await underMigrationLock(db, async (tx) => {
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  });
  const done = new Set(
    (await db.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
  );
  const applied: string[] = [];
  for (const file of files) {
    // Already recorded: skip without a transaction, so a start with nothing to do stays fast.
    if (done.has(file)) continue;
    const sql = readFileSync(path.join(dir, file), 'utf8');
    const ran = await (
      runsOutsideTransaction(sql)
        ? migrateOutsideTransaction(db, file, sql)
        : underMigrationLock(db, async (tx) => {
            // Another instance may have applied it while we waited for the lock.
            const recorded = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [file]);
            if (recorded.rowCount > 0) return false;
            for (const statement of splitSql(sql)) await tx.query(statement);
            await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file]);
            return true;
          })
    ).catch((error: unknown) => {
      throw new Error(`Migration ${file} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
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
