import type { Queryable } from '../../platform/db';

/** Deletes the customer's registrations (they hold the email address typed), for data protection erasure. */
export async function eraseRegistrations(tx: Queryable, customerId: string): Promise<number> {
  const { rowCount } = await tx.query('DELETE FROM registration_request WHERE customer_id = $1', [
    customerId,
  ]);
  return rowCount;
}
