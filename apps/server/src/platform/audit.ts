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
  if (rows.length > 1) {
    // One array a column: a statement of ten parameters whatever the number of rows (a bulk load's batch
    // writes a thousand, which as VALUES lists took PostgreSQL longer to parse than to insert).
    const column = <T>(f: (row: AuditRow) => T) => rows.map(f);
    await q.query(
      `INSERT INTO audit_event (occurred_at, source, event_id, customer_id, on_behalf_of, session_id, correlation_id, is_success, failure_reason, details)
       SELECT COALESCE(occurred_at, now()), source, event_id, customer_id, on_behalf_of, session_id, correlation_id,
              is_success, failure_reason, details::jsonb
         FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::boolean[], $9::text[], $10::text[])
           AS r (occurred_at, source, event_id, customer_id, on_behalf_of, session_id, correlation_id, is_success,
                 failure_reason, details)`,
      [
        column((row) => row.occurredAt?.toISOString() ?? null),
        column((row) => row.source),
        column((row) => row.eventId),
        column((row) => row.customerId ?? null),
        column((row) => row.onBehalfOf ?? null),
        column((row) => row.sessionId ?? null),
        column((row) => row.correlationId ?? null),
        column((row) => row.isSuccess ?? null),
        column((row) => row.failureReason ?? null),
        column((row) => JSON.stringify(row.details ?? {})),
      ],
    );
    return;
  }
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
 * server's rows of the given events, done by the customer (not on their behalf) or by the insurer's
 * contact centre for them (`on_behalf_of` staff:<subject>, issue 41: the customer is told what was done
 * for them), never by the insurer's systems or anyone else, newest first. $1 the customer, $2 the limit,
 * and with a cursor $3 occurred_at and $4 id: rows before that position. Each row carries its id as text
 * (row_id), its instant to the microsecond in UTC (at_exact), for the cursor, and whether staff did it
 * (by_staff; never who).
 */
export function customerTrailSql(eventIds: readonly string[], withCursor: boolean): string {
  return `SELECT id::text AS row_id,
      to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_exact,
      occurred_at, event_id, is_success, failure_reason, details,
      coalesce(on_behalf_of LIKE 'staff:%', false) AS by_staff
    FROM audit_event
    WHERE customer_id = $1 AND source = 'server'
      AND (on_behalf_of IS NULL OR on_behalf_of = customer_id OR on_behalf_of LIKE 'staff:%')
      AND event_id IN (${eventIds.map(quoted).join(', ')})
      ${withCursor ? 'AND (occurred_at, id) < ($3::timestamptz, $4::bigint)' : ''}
    ORDER BY occurred_at DESC, id DESC
    LIMIT $2`;
}

/** When the customer's newest server row of `eventId` was written, or null when there is none. */
export async function lastServerEventAt(
  q: Queryable,
  customerId: string,
  eventId: string,
): Promise<Date | null> {
  const { rows } = await q.query<{ occurred_at: Date | string }>(
    `SELECT occurred_at FROM audit_event
     WHERE customer_id = $1 AND source = 'server' AND event_id = $2
     ORDER BY occurred_at DESC, id DESC LIMIT 1`,
    [customerId, eventId],
  );
  return rows[0] ? new Date(rows[0].occurred_at) : null;
}

/** One row of a customer's whole trail, as an auditor reads it. */
export interface CustomerAuditRow {
  /** The row's id as text (a bigint), and its instant to the microsecond in UTC: the page's position. */
  rowId: string;
  atExact: string;
  occurredAt: Date;
  source: string;
  eventId: string;
  isSuccess: boolean | null;
  failureReason: string | null;
  onBehalfOf: string | null;
  details: Record<string, unknown>;
}

/**
 * One page of every audit row of one customer (server and client rows, whoever acted), newest first,
 * before `before` when given (a position from a row of the page before): the contact centre's auditors'
 * read-only view (issue 41 point 2).
 */
export async function customerAuditPage(
  q: Queryable,
  customerId: string,
  limit: number,
  before?: { at: string; id: string },
): Promise<CustomerAuditRow[]> {
  const { rows } = await q.query<{
    row_id: string;
    at_exact: string;
    occurred_at: Date | string;
    source: string;
    event_id: string;
    is_success: boolean | null;
    failure_reason: string | null;
    on_behalf_of: string | null;
    details: unknown;
  }>(
    `SELECT id::text AS row_id,
        to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_exact,
        occurred_at, source, event_id, is_success, failure_reason, on_behalf_of, details
      FROM audit_event
      WHERE customer_id = $1
        ${before ? 'AND (occurred_at, id) < ($3::timestamptz, $4::bigint)' : ''}
      ORDER BY occurred_at DESC, id DESC
      LIMIT $2`,
    before ? [customerId, limit, before.at, before.id] : [customerId, limit],
  );
  return rows.map((r) => ({
    rowId: r.row_id,
    atExact: r.at_exact,
    occurredAt: new Date(r.occurred_at),
    source: r.source,
    eventId: r.event_id,
    isSuccess: r.is_success,
    failureReason: r.failure_reason,
    onBehalfOf: r.on_behalf_of,
    details:
      r.details !== null && typeof r.details === 'object' && !Array.isArray(r.details)
        ? (r.details as Record<string, unknown>)
        : {},
  }));
}
