import type { Queryable } from '../../platform/db';

/**
 * Locks the customer's record for an erasure, first thing in its transaction, so that a write for this
 * customer racing it (a policy loaded, a preference changed) waits and then finds no customer instead of
 * slipping a row in before the record is deleted. Answers whether the customer is held.
 */
export async function lockCustomerForErasure(tx: Queryable, customerId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM customer WHERE customer_id = $1 FOR UPDATE', [customerId]);
  return rows.length > 0;
}

/**
 * Deletes the customer's record and what this module holds of theirs: preferences (with a correspondence
 * address), notifications shown to them and their contact-us messages. The notification campaigns are
 * not the customer's and stay. Runs last: other modules' rows refer to the record. Answers whether a
 * record went.
 */
export async function eraseCustomerRecord(tx: Queryable, customerId: string): Promise<boolean> {
  await tx.query('DELETE FROM contact_message WHERE customer_id = $1', [customerId]);
  await tx.query('DELETE FROM customer_notification WHERE customer_id = $1', [customerId]);
  await tx.query('DELETE FROM customer_preferences WHERE customer_id = $1', [customerId]);
  const { rowCount } = await tx.query('DELETE FROM customer WHERE customer_id = $1', [customerId]);
  return rowCount > 0;
}
