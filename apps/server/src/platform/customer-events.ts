import { randomUUID } from 'node:crypto';
import { z } from 'zod/mini';
import {
  customerEventData,
  type CustomerEventDataOf,
  type CustomerEventType,
} from '@portal/contracts/integration/events';
import type { Queryable } from './db';
import { instanceOf, type PlatformContext } from './module';

/*
 * The journal of customers' changes (consent, paperless, contact messages, registrations, contact details,
 * a closed account...): a platform mechanism, like the message queue, so the modules where customers make
 * changes (account, registration, portal) record them without knowing who takes them. Each change is one
 * row of `integration_event`, written in the transaction that made the change, so it exists exactly when
 * the change committed. The integration module takes them from here: it gives each its place in the feed
 * (`sequence`), offers the feed, and sends them to the insurer's receivers as signed webhooks.
 */

/**
 * One change of a customer's, as its module records it. `customerId` and `at` of the data are filled in
 * from the event (`at` is `occurredAt`, the clock's now by default).
 */
export type CustomerEvent = {
  [T in CustomerEventType]: {
    type: T;
    customerId: string;
    data: Omit<CustomerEventDataOf<T>, 'customerId' | 'at'>;
    occurredAt?: Date;
  };
}[CustomerEventType];

/** What is told, in this process, of every change recorded (the webhook dispatcher wakes on it). */
type RecordedListener = () => void;
const listeners = new WeakMap<object, Set<RecordedListener>>();

/** Calls `listener` after each change recorded through this app; answers a function that stops it. */
export function onCustomerEvent(ctx: PlatformContext, listener: RecordedListener): () => void {
  const instance = instanceOf(ctx);
  let set = listeners.get(instance);
  if (!set) listeners.set(instance, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Records one change in the caller's transaction: it is taken only if that commits. */
export async function recordCustomerEvent(
  ctx: PlatformContext,
  tx: Queryable,
  event: CustomerEvent,
): Promise<void> {
  const occurredAt = event.occurredAt ?? ctx.clock.now();
  // Our own bug if this throws: the change rolls back with it rather than going out malformed.
  const data = z.parse(customerEventData[event.type], {
    customerId: event.customerId,
    ...event.data,
    at: occurredAt.toISOString(),
  });
  await tx.query(
    `INSERT INTO integration_event (event_id, type, customer_id, occurred_at, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [randomUUID(), event.type, event.customerId, occurredAt, JSON.stringify(data)],
  );
  // Not visible until the caller commits: a wake now usually finds it, the next poll surely does.
  for (const listener of listeners.get(instanceOf(ctx)) ?? []) listener();
}

/** A change as the journal holds it. */
export interface JournalRow {
  id: number;
  event_id: string;
  type: string;
  customer_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  position: number;
}

/** Whether any committed change still waits for its place in the feed (a cheap look before a lock). */
export async function hasUnsequencedEvents(q: Queryable): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM integration_event WHERE position IS NULL LIMIT 1');
  return rows.length > 0;
}

/**
 * Gives up to `batch` committed changes without a place the next positions, in the order they were
 * recorded, and answers them. Run by one sequencer at a time (the caller holds its lock), in one
 * transaction, so positions appear in order.
 */
export async function sequenceEvents(
  tx: Queryable,
  batch: number,
): Promise<Array<{ id: number; type: string; customer_id: string; position: number }>> {
  const { rows } = await tx.query<{ id: number; type: string; customer_id: string; position: number }>(
    `WITH next AS (
       SELECT e.id, (SELECT coalesce(max(position), 0) FROM integration_event) + row_number() OVER (ORDER BY e.id) AS position
       FROM integration_event e WHERE e.position IS NULL ORDER BY e.id LIMIT $1)
     UPDATE integration_event e SET position = next.position FROM next WHERE e.id = next.id
     RETURNING e.id, e.type, e.customer_id, e.position`,
    [batch],
  );
  return rows;
}

/** The changes after `after` (a position), in order. */
export async function readEvents(q: Queryable, after: number, limit: number): Promise<JournalRow[]> {
  const { rows } = await q.query<JournalRow>(
    `SELECT id, event_id, type, customer_id, occurred_at, data, position FROM integration_event
     WHERE position > $1 ORDER BY position LIMIT $2`,
    [after, limit],
  );
  return rows;
}

/** The changes with these row ids (a delivery's), in any order. */
export async function eventsById(q: Queryable, ids: readonly number[]): Promise<JournalRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<JournalRow>(
    `SELECT id, event_id, type, customer_id, occurred_at, data, position FROM integration_event
     WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return rows;
}

/**
 * An erased customer's changes not yet taken by the insurer (decision 020): what they chose or wrote.
 * Whatever refers to them goes with them (the integration module's deliveries, ON DELETE CASCADE).
 */
export async function eraseCustomerEvents(tx: Queryable, customerId: string): Promise<number> {
  const { rowCount } = await tx.query('DELETE FROM integration_event WHERE customer_id = $1', [customerId]);
  return rowCount;
}
