import type { Queryable } from '../../platform/db';

type DocumentKind =
  'schedule' | 'certificate' | 'statement_of_fact' | 'policy_wording' | 'insert' | 'quote_summary';

export interface PackRecord {
  title: string;
  createdAt: string;
  documents: Array<{ id: string; name: string; date: string }>;
}

/**
 * One page of a policy's document packs, newest first, with how many there are. null when the policy is
 * not the customer's: decided in the same query that reads the packs.
 */
export async function listPolicyPacks(
  q: Queryable,
  customerId: string,
  policyNumber: string,
  page: number,
  pageSize: number,
): Promise<{ packs: PackRecord[]; total: number } | null> {
  const { rows } = await q.query<{
    total: string;
    title: string | null;
    created_at: string | null;
    documents: unknown;
  }>(
    `SELECT (SELECT count(*) FROM document_pack c WHERE c.customer_id = p.customer_id
                AND c.policy_number = p.policy_number)::text AS total,
            pk.title, to_char(pk.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
            (SELECT coalesce(json_agg(json_build_object('id', d.document_id, 'name', d.name,
                                                        'date', d.document_date::text) ORDER BY d.position), '[]'::json)
               FROM document d WHERE d.pack_id = pk.pack_id AND d.customer_id = p.customer_id) AS documents
       FROM policy p
       LEFT JOIN LATERAL (SELECT * FROM document_pack x WHERE x.customer_id = p.customer_id
                            AND x.policy_number = p.policy_number
                          ORDER BY x.created_at DESC, x.pack_id LIMIT $3 OFFSET $4) pk ON true
      WHERE p.customer_id = $1 AND p.policy_number = $2`,
    [customerId, policyNumber, pageSize, (page - 1) * pageSize],
  );
  if (rows.length === 0) return null;
  const total = Number(rows[0]!.total);
  const packs = rows
    .filter((r) => r.title !== null)
    .map((r) => ({
      title: r.title!,
      createdAt: r.created_at!,
      documents: (typeof r.documents === 'string'
        ? JSON.parse(r.documents)
        : r.documents) as PackRecord['documents'],
    }));
  return { packs, total };
}

export interface DocumentRecord {
  id: string;
  kind: DocumentKind;
  name: string;
  date: string;
}

/** One document of one of the customer's policies; null when any part of the path is not theirs. */
export async function findPolicyDocument(
  q: Queryable,
  customerId: string,
  policyNumber: string,
  documentId: string,
): Promise<DocumentRecord | null> {
  const { rows } = await q.query<{
    document_id: string;
    kind: DocumentKind;
    name: string;
    document_date: string;
  }>(
    `SELECT d.document_id, d.kind, d.name, d.document_date::text AS document_date
       FROM document d JOIN document_pack pk ON pk.pack_id = d.pack_id
      WHERE d.customer_id = $1 AND pk.customer_id = $1 AND pk.policy_number = $2 AND d.document_id = $3`,
    [customerId, policyNumber, documentId],
  );
  const r = rows[0];
  return r ? { id: r.document_id, kind: r.kind, name: r.name, date: r.document_date } : null;
}

export interface QuoteDocumentRecord extends DocumentRecord {
  quote: {
    quoteNumber: string;
    productName: string;
    productType: string;
    startDate: string;
    premium: number;
  };
}

export async function findQuoteDocument(
  q: Queryable,
  customerId: string,
  quoteNumber: string,
  documentId: string,
): Promise<QuoteDocumentRecord | null> {
  const { rows } = await q.query<{
    document_id: string;
    kind: DocumentKind;
    name: string;
    document_date: string;
    quote_number: string;
    product_name: string;
    product_type: string;
    start_date: string;
    premium: string;
  }>(
    `SELECT d.document_id, d.kind, d.name, d.document_date::text AS document_date, qu.quote_number,
            qu.product_name, qu.product_type, qu.start_date::text AS start_date, qu.premium::text AS premium
       FROM document d JOIN quote qu ON qu.quote_number = d.quote_number
      WHERE d.customer_id = $1 AND qu.customer_id = $1 AND qu.quote_number = $2 AND d.document_id = $3`,
    [customerId, quoteNumber, documentId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.document_id,
    kind: r.kind,
    name: r.name,
    date: r.document_date,
    quote: {
      quoteNumber: r.quote_number,
      productName: r.product_name,
      productType: r.product_type,
      startDate: r.start_date,
      premium: Number(r.premium),
    },
  };
}

/* Demo data ------------------------------------------------------------------------------------- */

export async function replaceDemoPacks(
  q: Queryable,
  customerId: string,
  policyNumber: string,
  packs: Array<{ packId: string; title: string; createdAt: string; documents: Array<DocumentRecord> }>,
): Promise<void> {
  await q.query('DELETE FROM document_pack WHERE customer_id = $1 AND policy_number = $2', [
    customerId,
    policyNumber,
  ]);
  for (const pack of packs) {
    await q.query(
      'INSERT INTO document_pack (pack_id, customer_id, policy_number, title, created_at) VALUES ($1, $2, $3, $4, $5)',
      [pack.packId, customerId, policyNumber, pack.title, pack.createdAt],
    );
    let position = 0;
    for (const d of pack.documents) {
      await q.query(
        `INSERT INTO document (document_id, customer_id, pack_id, kind, name, document_date, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [d.id, customerId, pack.packId, d.kind, d.name, d.date, position++],
      );
    }
  }
}

export async function replaceDemoQuoteDocuments(
  q: Queryable,
  customerId: string,
  quoteNumber: string,
  documents: DocumentRecord[],
): Promise<void> {
  await q.query('DELETE FROM document WHERE customer_id = $1 AND quote_number = $2', [
    customerId,
    quoteNumber,
  ]);
  let position = 0;
  for (const d of documents) {
    await q.query(
      `INSERT INTO document (document_id, customer_id, quote_number, kind, name, document_date, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [d.id, customerId, quoteNumber, d.kind, d.name, d.date, position++],
    );
  }
}
