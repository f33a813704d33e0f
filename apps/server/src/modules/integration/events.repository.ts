import type { Queryable } from '../../platform/db';

/** A receiver as the sequencer needs it: which event types it takes (all when null). */
export interface DeliveryTarget {
  id: string;
  types: readonly string[] | null;
}

/**
 * The deliveries of sequenced events (their rows as the journal gave them, in order) to each receiver
 * that takes their type. Run by the sequencer, in the transaction that gave them their positions.
 */
export async function createDeliveries(
  tx: Queryable,
  targets: readonly DeliveryTarget[],
  events: ReadonlyArray<{ id: number; type: string; customer_id: string; position: number }>,
  now: Date,
): Promise<void> {
  for (const target of targets) {
    const taken = events.filter((e) => target.types === null || target.types.includes(e.type));
    if (taken.length === 0) continue;
    await tx.query(
      `INSERT INTO webhook_delivery (endpoint_id, event_row_id, customer_id, position, next_attempt_at)
       SELECT $1, e.id, e.customer_id, e.position, $5
         FROM unnest($2::bigint[], $3::text[], $4::bigint[]) AS e(id, customer_id, position)
       ON CONFLICT (endpoint_id, event_row_id) DO NOTHING`,
      [target.id, taken.map((e) => e.id), taken.map((e) => e.customer_id), taken.map((e) => e.position), now],
    );
  }
}

export interface ClaimedDelivery {
  id: number;
  endpoint_id: string;
  attempts: number;
  /** The journal's row of the event (platform/customer-events.ts), which holds what is sent. */
  event_row_id: number;
}

/**
 * Claims up to `batch` due deliveries to the given receivers for `leaseMs`, each one only when no earlier
 * delivery of the same customer to the same receiver is still open (pending or sending), so a customer's
 * changes arrive in the order they were made. SKIP LOCKED: instances never claim the same row, and a row
 * another instance is claiming right now still counts as open.
 */
export async function claimDeliveries(
  q: Queryable,
  endpointIds: readonly string[],
  now: Date,
  leaseUntil: Date,
  batch: number,
): Promise<ClaimedDelivery[]> {
  const { rows } = await q.query<ClaimedDelivery>(
    `UPDATE webhook_delivery SET status = 'sending', attempts = attempts + 1, locked_until = $3
       WHERE id IN (
         SELECT d.id FROM webhook_delivery d
         WHERE d.endpoint_id = ANY($1::text[])
           AND ((d.status = 'pending' AND d.next_attempt_at <= $2) OR (d.status = 'sending' AND d.locked_until <= $2))
           AND NOT EXISTS (
             SELECT 1 FROM webhook_delivery e
             WHERE e.endpoint_id = d.endpoint_id AND e.customer_id = d.customer_id AND e.position < d.position
               AND e.status IN ('pending', 'sending'))
         ORDER BY d.next_attempt_at, d.position LIMIT $4
         FOR UPDATE SKIP LOCKED)
       RETURNING id, endpoint_id, attempts, event_row_id`,
    [endpointIds, now, leaseUntil, batch],
  );
  return rows;
}

export async function markDelivered(q: Queryable, id: number, status: number, now: Date): Promise<void> {
  await q.query(
    `UPDATE webhook_delivery SET status = 'delivered', delivered_at = $3, last_status = $2, last_error = NULL,
       locked_until = NULL
     WHERE id = $1`,
    [id, status, now],
  );
}

/** A failed attempt: due again at `retryAt`, or dead when that is null. */
export async function markFailed(
  q: Queryable,
  id: number,
  failure: { error: string; status: number | null },
  retryAt: Date | null,
): Promise<void> {
  await q.query(
    `UPDATE webhook_delivery SET status = CASE WHEN $4::timestamptz IS NULL THEN 'dead' ELSE 'pending' END,
       next_attempt_at = coalesce($4, next_attempt_at), locked_until = NULL, last_error = $2, last_status = $3
     WHERE id = $1`,
    [id, failure.error, failure.status, retryAt],
  );
}

export interface DeadLetterRow {
  id: number;
  endpoint_id: string;
  event_row_id: number;
  attempts: number;
  last_error: string | null;
  last_status: number | null;
}

export async function listDeadLetters(q: Queryable, limit: number): Promise<DeadLetterRow[]> {
  const { rows } = await q.query<DeadLetterRow>(
    `SELECT id, endpoint_id, event_row_id, attempts, last_error, last_status
     FROM webhook_delivery WHERE status = 'dead' ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Puts a dead delivery back, due now, with a fresh count of attempts; false when no dead one has that id. */
export async function revive(q: Queryable, id: number, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE webhook_delivery SET status = 'pending', attempts = 0, next_attempt_at = $2, locked_until = NULL
     WHERE id = $1 AND status = 'dead'`,
    [id, now],
  );
  return rowCount > 0;
}
