import type { Queryable } from '../../platform/db';

/**
 * Deletes the customer's policies, quotes and agency link (data protection erasure). Runs after the
 * document module's erasure: policy.customer_id does not cascade from the customer, and the packs and
 * documents that belong to these policies and quotes are that module's rows. The agencies themselves are
 * the insurer's reference data, shared by customers, and stay. Answers how many policies went.
 */
export async function erasePolicies(tx: Queryable, customerId: string): Promise<number> {
  await tx.query('DELETE FROM customer_agency WHERE customer_id = $1', [customerId]);
  await tx.query('DELETE FROM quote WHERE customer_id = $1', [customerId]);
  const { rowCount } = await tx.query('DELETE FROM policy WHERE customer_id = $1', [customerId]);
  return rowCount;
}
