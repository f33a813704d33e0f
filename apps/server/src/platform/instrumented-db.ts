import type { Db, Queryable } from './db';
import { secondsSince, type Metrics } from './metrics';
import { inSpan, SpanKind } from './tracing';

/** The statement's kind (SELECT, INSERT, ...), a label of a few values. */
function operationOf(sql: string): string {
  const word = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase();
  return word &&
    /^(SELECT|INSERT|UPDATE|DELETE|WITH|BEGIN|COMMIT|ROLLBACK|CREATE|ALTER|DROP|LOCK|SET)$/.test(word)
    ? word
    : 'OTHER';
}

/** The longest statement text a span carries (they are parameterised: values are never in them). */
const MAX_QUERY_TEXT = 2000;

/**
 * The app's database with every query timed (portal_db_query_duration_seconds) and, when tracing is on,
 * in a span of its own (a transaction's queries are children of the transaction's span); the pool
 * gauges read its pool.
 */
export function instrumentDb(db: Db, metrics: Metrics): Db {
  metrics.watchDbPool(() => db.poolStats?.());
  const measured = (q: Queryable): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      const operation = operationOf(sql);
      const started = process.hrtime.bigint();
      let outcome = 'error';
      try {
        const result = await inSpan(
          operation,
          SpanKind.CLIENT,
          {
            'db.system.name': 'postgresql',
            'db.operation.name': operation,
            'db.query.text': sql.slice(0, MAX_QUERY_TEXT),
          },
          () => q.query<T>(sql, params),
        );
        outcome = 'ok';
        return result;
      } finally {
        metrics.dbQueryDuration.observe({ operation, outcome }, secondsSince(started));
      }
    },
  });
  return {
    kind: db.kind,
    ...(db.statementName ? { statementName: (sql: string) => db.statementName!(sql) } : {}),
    ...(db.poolStats ? { poolStats: () => db.poolStats!() } : {}),
    query: measured(db).query,
    transaction: (fn) =>
      inSpan('transaction', SpanKind.CLIENT, { 'db.system.name': 'postgresql' }, () =>
        db.transaction((tx) => fn(measured(tx))),
      ),
    exec: (sql) => db.exec(sql),
    ...(db.listen ? { listen: db.listen.bind(db) } : {}),
    close: () => db.close(),
  };
}
