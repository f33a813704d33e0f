import type { Queryable } from '../db';

/**
 * Deletes the messages to the customer still queued or kept in the outbox (they hold the recipient's
 * address or number and the text), for data protection erasure. A message a worker has already claimed
 * is in its hands and may still go out; its later update of the queue row finds none and does nothing.
 */
export async function eraseCustomerMessages(tx: Queryable, customerId: string): Promise<number> {
  const queued = await tx.query('DELETE FROM message_queue WHERE customer_id = $1', [customerId]);
  const kept = await tx.query('DELETE FROM outbox_message WHERE customer_id = $1', [customerId]);
  return queued.rowCount + kept.rowCount;
}
