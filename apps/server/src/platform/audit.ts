import type { Queryable } from './db';

export interface AuditRow {
  source: 'server' | 'client';
  eventId: string;
  customerId?: string | null;
  onBehalfOf?: string | null;
  sessionId?: string | null;
  correlationId?: string | null;
  isSuccess?: boolean | null;
  failureReason?: string | null;
  /** Extra fields. Never a password, code, token or full phone number. */
  details?: Record<string, unknown>;
  occurredAt?: Date;
}

const COLUMNS = 10;

/**
 * Appends the rows in one INSERT statement (one transaction of its own unless q is one): for a batch of
 * events that belong to no state change (the SPA's, appended by group commit).
 */
export async function writeAuditRows(q: Queryable, rows: readonly AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows
    .map((_, r) => {
      const p = (c: number) => `$${r * COLUMNS + c}`;
      return `(COALESCE(${p(1)}::timestamptz, now()), ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}::boolean, ${p(9)}, ${p(10)}::jsonb)`;
    })
    .join(', ');
  await q.query(
    `INSERT INTO audit_event (occurred_at, source, event_id, customer_id, on_behalf_of, session_id, correlation_id, is_success, failure_reason, details)
     VALUES ${values}`,
    rows.flatMap((row) => [
      row.occurredAt ?? null,
      row.source,
      row.eventId,
      row.customerId ?? null,
      row.onBehalfOf ?? null,
      row.sessionId ?? null,
      row.correlationId ?? null,
      row.isSuccess ?? null,
      row.failureReason ?? null,
      JSON.stringify(row.details ?? {}),
    ]),
  );
}

/** Appends one audit row. Pass the transaction of the state change so both commit together. */
export async function writeAudit(q: Queryable, row: AuditRow): Promise<void> {
  await writeAuditRows(q, [row]);
}

const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * A page of one customer's trail as the customer's own account activity reads it (portal module): the
 * server's rows of the given events, done by the customer (not on their behalf), newest first. $1 the
 * customer, $2 the limit, and with a cursor $3 occurred_at and $4 id: rows before that position. Each row
 * carries its id as text (row_id) and its instant to the microsecond in UTC (at_exact), for the cursor.
 */
export function customerTrailSql(eventIds: readonly string[], withCursor: boolean): string {
  return `SELECT id::text AS row_id,
      to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_exact,
      occurred_at, event_id, is_success, failure_reason, details
    FROM audit_event
    WHERE customer_id = $1 AND source = 'server'
      AND (on_behalf_of IS NULL OR on_behalf_of = customer_id)
      AND event_id IN (${eventIds.map(quoted).join(', ')})
      ${withCursor ? 'AND (occurred_at, id) < ($3::timestamptz, $4::bigint)' : ''}
    ORDER BY occurred_at DESC, id DESC
    LIMIT $2`;
}
