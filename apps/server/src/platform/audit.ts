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

/** Appends one audit row. Pass the transaction of the state change so both commit together. */
export async function writeAudit(q: Queryable, row: AuditRow): Promise<void> {
  await q.query(
    `INSERT INTO audit_event (occurred_at, source, event_id, customer_id, on_behalf_of, session_id, correlation_id, is_success, failure_reason, details)
     VALUES (COALESCE($1, now()), $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
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
    ],
  );
}
