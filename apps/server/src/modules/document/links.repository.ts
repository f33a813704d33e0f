import type { Queryable } from '../../platform/db';

/*
 * A document named by its id alone, wherever it is held (a bill, a document of a policy's pack, a quote's
 * document): for a customer message that links to one (the message module, above this one, through the
 * document module's service).
 */

/** Where a document is listed, and the number its PDF's address takes: account, policy or quote. */
export interface DocumentLinkRow {
  id: string;
  name: string;
  date: string;
  kind: 'bill' | 'policy' | 'quote';
  reference: string;
}

/** The customers holding a document with this id (ids are unique within bills, and within the others). */
export async function documentHolders(q: Queryable, documentId: string): Promise<string[]> {
  const { rows } = await q.query<{ customer_id: string }>(
    `SELECT customer_id FROM billing_document WHERE document_id = $1
     UNION SELECT customer_id FROM document WHERE document_id = $1`,
    [documentId],
  );
  return rows.map((r) => r.customer_id);
}

/** The customer's document with this id, as the page that lists it names it; null when none is theirs. */
export async function findDocumentLink(
  q: Queryable,
  customerId: string,
  documentId: string,
): Promise<DocumentLinkRow | null> {
  const { rows } = await q.query<DocumentLinkRow>(
    `SELECT b.document_id AS id, b.name, b.document_date::text AS date, 'bill' AS kind,
            b.account_number AS reference, 1 AS rank
       FROM billing_document b WHERE b.customer_id = $1 AND b.document_id = $2
     UNION ALL
     SELECT d.document_id, d.name, d.document_date::text,
            CASE WHEN d.pack_id IS NULL THEN 'quote' ELSE 'policy' END,
            coalesce(p.policy_number, d.quote_number), 2
       FROM document d LEFT JOIN document_pack p ON p.pack_id = d.pack_id AND p.customer_id = $1
      WHERE d.customer_id = $1 AND d.document_id = $2
     ORDER BY rank LIMIT 1`,
    [customerId, documentId],
  );
  const r = rows[0];
  // A pack's document whose pack is not the customer's (never written so): not theirs to open.
  return r?.reference ? { id: r.id, name: r.name, date: r.date, kind: r.kind, reference: r.reference } : null;
}
