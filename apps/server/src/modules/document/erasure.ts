import type { Queryable } from '../../platform/db';

/**
 * Deletes the customer's documents (data protection erasure): policy and quote documents and their packs,
 * billing accounts and billing documents. Runs before the policy module's erasure, whose policies and
 * quotes these belong to. Answers how many documents went.
 */
export async function eraseCustomerDocuments(tx: Queryable, customerId: string): Promise<number> {
  const documents = await tx.query('DELETE FROM document WHERE customer_id = $1', [customerId]);
  await tx.query('DELETE FROM document_pack WHERE customer_id = $1', [customerId]);
  const bills = await tx.query('DELETE FROM billing_document WHERE customer_id = $1', [customerId]);
  await tx.query('DELETE FROM billing_account WHERE customer_id = $1', [customerId]);
  return documents.rowCount + bills.rowCount;
}
