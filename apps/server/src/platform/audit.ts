import type { Db, Queryable } from './db';
import { groupCommit, type GroupCommit } from './group-commit';

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

/** Appends the rows in one INSERT statement (so one transaction of its own unless q is one). */
async function writeAuditRows(q: Queryable, rows: readonly AuditRow[]): Promise<void> {
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

export interface AuditQueueLimits {
  /** The most rows in one INSERT. */
  maxBatch: number;
  /** The most rows waiting for the next INSERT; beyond that an append is refused with 503. */
  maxQueue: number;
}

/**
 * Audit rows that belong to no state change (the SPA's audit events), appended by group commit
 * (group-commit.ts): rows arriving while an INSERT is running wait for it and go together in the next
 * one, a multi-row INSERT that is one transaction. append() resolves once its row has committed. Rows
 * of a state change are never written here: they go through writeAudit in that change's transaction.
 */
export function auditQueue(db: Db, limits: AuditQueueLimits): GroupCommit<AuditRow, void> {
  return groupCommit<AuditRow, void>({
    ...limits,
    write: async (rows) => {
      await writeAuditRows(db, rows);
      return rows.map(() => undefined);
    },
  });
}
