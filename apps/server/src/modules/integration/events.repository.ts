import type { Queryable } from '../../platform/db';

export interface EventRow {
  id: number;
  event_id: string;
  type: string;
  customer_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  position: number;
}

export async function insertEvent(
  q: Queryable,
  event: { eventId: string; type: string; customerId: string; occurredAt: Date; data: unknown },
): Promise<void> {
  await q.query(
    `INSERT INTO integration_event (event_id, type, customer_id, occurred_at, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [event.eventId, event.type, event.customerId, event.occurredAt, JSON.stringify(event.data)],
  );
}

/** Whether any committed event still waits for its position (a cheap look before taking the lock). */
export async function hasUnsequenced(q: Queryable): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM integration_event WHERE position IS NULL LIMIT 1');
  return rows.length > 0;
}

/** A receiver as the sequencer needs it: which event types it takes (all when null). */
export interface DeliveryTarget {
  id: string;
  types: readonly string[] | null;
}

/**
 * Gives up to `batch` committed, unsequenced events the next positions, in id order, and creates their
 * deliveries to each receiver that takes their type. Answers how many it sequenced. Run only under the
 * sequencer's lock, in one transaction.
 */
export async function sequenceBatch(
  tx: Queryable,
  targets: readonly DeliveryTarget[],
  now: Date,
  batch: number,
): Promise<number> {
  const { rows } = await tx.query<{ id: number; type: string; customer_id: string; position: number }>(
    `WITH next AS (
       SELECT e.id, (SELECT coalesce(max(position), 0) FROM integration_event) + row_number() OVER (ORDER BY e.id) AS position
       FROM integration_event e WHERE e.position IS NULL ORDER BY e.id LIMIT $1)
     UPDATE integration_event e SET position = next.position FROM next WHERE e.id = next.id
     RETURNING e.id, e.type, e.customer_id, e.position`,
    [batch],
  );
  for (const target of targets) {
    const taken = rows.filter((r) => target.types === null || target.types.includes(r.type));
    if (taken.length === 0) continue;
    await tx.query(
      `INSERT INTO webhook_delivery (endpoint_id, event_row_id, customer_id, position, next_attempt_at)
       SELECT $1, e.id, e.customer_id, e.position, $3 FROM integration_event e WHERE e.id = ANY($2::bigint[])
       ON CONFLICT (endpoint_id, event_row_id) DO NOTHING`,
      [target.id, taken.map((r) => r.id), now],
    );
  }
  return rows.length;
}

export async function readFeed(q: Queryable, after: number, limit: number): Promise<EventRow[]> {
  const { rows } = await q.query<EventRow>(
    `SELECT id, event_id, type, customer_id, occurred_at, data, position FROM integration_event
     WHERE position > $1 ORDER BY position LIMIT $2`,
    [after, limit],
  );
  return rows;
}

export interface ClaimedDelivery {
  id: number;
  endpoint_id: string;
  attempts: number;
  event_id: string;
  type: string;
  occurred_at: Date;
  data: Record<string, unknown>;
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
    `WITH claimed AS (
       UPDATE webhook_delivery SET status = 'sending', attempts = attempts + 1, locked_until = $3
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
       RETURNING id, endpoint_id, attempts, event_row_id)
     SELECT c.id, c.endpoint_id, c.attempts, e.event_id, e.type, e.occurred_at, e.data
     FROM claimed c JOIN integration_event e ON e.id = c.event_row_id`,
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
  event_id: string;
  type: string;
  attempts: number;
  last_error: string | null;
  last_status: number | null;
}

export async function listDeadLetters(q: Queryable, limit: number): Promise<DeadLetterRow[]> {
  const { rows } = await q.query<DeadLetterRow>(
    `SELECT d.id, d.endpoint_id, e.event_id, e.type, d.attempts, d.last_error, d.last_status
     FROM webhook_delivery d JOIN integration_event e ON e.id = d.event_row_id
     WHERE d.status = 'dead' ORDER BY d.id LIMIT $1`,
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

/** An erased customer's events; their deliveries go with them (ON DELETE CASCADE). */
export async function deleteCustomerEvents(q: Queryable, customerId: string): Promise<void> {
  await q.query('DELETE FROM integration_event WHERE customer_id = $1', [customerId]);
}
