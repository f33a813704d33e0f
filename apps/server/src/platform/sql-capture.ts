import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from './db';

/**
 * Benchmarks only (PORTAL_SQL_CAPTURE_FILE, refused in production by the config): what SQL a call runs.
 * A request sent with `X-Portal-Sql-Capture: 1` has every statement it runs recorded (text, parameters,
 * rows returned, when it started and ended, and whether it ran in a transaction), and when the response
 * has gone, one JSON line is appended to the file: the request's method, URL, correlation id, status,
 * and the statements in the order they started. bench/api-load.ts reads it to report statements and rows
 * per call and to replay exactly those statements in its bare peer (a minimal server with the same pool).
 * Other requests, and everything outside a request (housekeeping, workers), are not recorded.
 */

export interface CapturedStatement {
  sql: string;
  /** The name it ran under as a named prepared statement (platform/db.ts); absent when unnamed. */
  name?: string;
  params: readonly unknown[];
  rows: number;
  /** Milliseconds from the request's start. */
  startMs: number;
  endMs: number;
  /** The transaction (numbered within the request) it ran in, if any. */
  transaction?: number;
}

export interface CapturedCall {
  method: string;
  url: string;
  correlationId: string;
  status: number;
  statements: CapturedStatement[];
}

interface Recording {
  started: bigint;
  statements: CapturedStatement[];
  transactions: number;
}

const recording = new AsyncLocalStorage<Recording>();
const msSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

function recorded(
  q: Queryable,
  nameOf: (sql: string) => string | undefined,
  transaction?: number,
): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const record = recording.getStore();
      if (!record) return q.query<T>(sql, params);
      const startMs = msSince(record.started);
      const result = await q.query<T>(sql, params);
      const name = nameOf(sql);
      record.statements.push({
        sql,
        ...(name ? { name } : {}),
        params: params ?? [],
        rows: result.rows.length,
        startMs,
        endMs: msSince(record.started),
        ...(transaction === undefined ? {} : { transaction }),
      });
      return result;
    },
  };
}

/** The database with statements recorded for capturing requests; the same database otherwise. */
export function captureSql(db: Db): Db {
  const nameOf = (sql: string) => db.statementName?.(sql);
  return {
    kind: db.kind,
    ...(db.statementName ? { statementName: (sql: string) => db.statementName!(sql) } : {}),
    ...(db.poolStats ? { poolStats: () => db.poolStats!() } : {}),
    query: recorded(db, nameOf).query,
    transaction: (fn) => {
      const record = recording.getStore();
      if (!record) return db.transaction(fn);
      const number = ++record.transactions;
      return db.transaction((tx) => fn(recorded(tx, nameOf, number)));
    },
    exec: (sql) => db.exec(sql),
    ...(db.listen ? { listen: db.listen.bind(db) } : {}),
    close: () => db.close(),
  };
}

/** Records the statements of requests that ask for it, and appends each to the file once answered. */
export function installSqlCapture(app: FastifyInstance, file: string): void {
  const records = new WeakMap<object, Recording>();
  let open = 0;
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['x-portal-sql-capture'] !== '1') return done();
    const record: Recording = { started: process.hrtime.bigint(), statements: [], transactions: 0 };
    records.set(request, record);
    open += 1;
    // The rest of the request's hooks and its handler run inside, so their queries find the recording.
    recording.run(record, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const record = records.get(request);
    if (!record) return done();
    // Once no request is recording, the storage is switched off again: while on, Node tracks the context
    // of every promise, a cost the measured load after a capture must not pay.
    open -= 1;
    if (open === 0) recording.disable();
    const call: CapturedCall = {
      method: request.method,
      url: request.url,
      correlationId: request.correlationId,
      status: reply.statusCode,
      statements: record.statements,
    };
    appendFileSync(file, `${JSON.stringify(call)}\n`);
    done();
  });
}
