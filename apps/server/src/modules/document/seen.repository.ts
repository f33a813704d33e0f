import type { Queryable } from '../../platform/db';

/** Records that the customer opened the document (again: nothing changes). */
export async function markSeen(
  q: Queryable,
  customerId: string,
  documentId: string,
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO document_seen (customer_id, document_id, seen_at) VALUES ($1, $2, $3)
     ON CONFLICT (customer_id, document_id) DO NOTHING`,
    [customerId, documentId, at],
  );
}

/**
 * For the demo data: the customer has opened every document of theirs but the newest bill of each billing
 * account and the documents of each policy's newest pack (quote documents: all opened).
 */
export async function markSeenButNewest(q: Queryable, customerId: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO document_seen (customer_id, document_id, seen_at)
     SELECT $1, b.document_id, $2::timestamptz FROM billing_document b
      WHERE b.customer_id = $1
        AND b.document_id <> (SELECT n.document_id FROM billing_document n WHERE n.account_number = b.account_number
                               ORDER BY n.document_date DESC, n.document_id LIMIT 1)
     UNION
     SELECT $1, d.document_id, $2::timestamptz FROM document d
      WHERE d.customer_id = $1
        AND (d.pack_id IS NULL
             OR d.pack_id <> (SELECT p.pack_id FROM document_pack p, document_pack q
                               WHERE q.pack_id = d.pack_id AND p.customer_id = q.customer_id
                                 AND p.policy_number = q.policy_number
                               ORDER BY p.created_at DESC, p.pack_id LIMIT 1))
     ON CONFLICT (customer_id, document_id) DO NOTHING`,
    [customerId, at],
  );
}

/** An erased customer's record of what they opened. */
export async function eraseSeen(q: Queryable, customerId: string): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM document_seen WHERE customer_id = $1', [customerId]);
  return rowCount;
}

/** How many of the customer's bills and policy documents they have not opened, and by policy. */
export async function countNotSeen(
  q: Queryable,
  customerId: string,
): Promise<{ bills: number; policyDocuments: number; byPolicy: Record<string, number> }> {
  const { rows } = await q.query<{ policy_number: string | null; count: number }>(
    `SELECT NULL AS policy_number, count(*)::int AS count FROM billing_document b
      WHERE b.customer_id = $1
        AND NOT EXISTS (SELECT 1 FROM document_seen s WHERE s.customer_id = $1 AND s.document_id = b.document_id)
     UNION ALL
     SELECT p.policy_number, count(*)::int FROM document d JOIN document_pack p ON p.pack_id = d.pack_id
      WHERE d.customer_id = $1
        AND NOT EXISTS (SELECT 1 FROM document_seen s WHERE s.customer_id = $1 AND s.document_id = d.document_id)
      GROUP BY p.policy_number`,
    [customerId],
  );
  const byPolicy: Record<string, number> = {};
  let bills = 0;
  for (const row of rows) {
    if (row.policy_number === null) bills = Number(row.count);
    else if (Number(row.count) > 0) byPolicy[row.policy_number] = Number(row.count);
  }
  const policyDocuments = Object.values(byPolicy).reduce((sum, n) => sum + n, 0);
  return { bills, policyDocuments, byPolicy };
}
