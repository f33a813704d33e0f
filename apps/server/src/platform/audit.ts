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
