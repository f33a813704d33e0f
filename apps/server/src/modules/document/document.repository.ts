import type { Queryable } from '../../platform/db';
import type { FileRef } from './files.repository';

export type DocumentKind =
  'schedule' | 'certificate' | 'statement_of_fact' | 'policy_wording' | 'insert' | 'quote_summary';

export interface PackRecord {
  title: string;
  createdAt: string;
  /** isNew: not opened by the customer yet (document_seen). */
  documents: Array<{ id: string; name: string; date: string; isNew: boolean }>;
}

/**
 * One page of a policy's document packs, newest first, with how many there are (its packs are held with
 * their customer: a policy of another customer's shows none).
 */
export async function listPolicyPacks(
  q: Queryable,
  customerId: string,
  policyNumber: string,
  page: number,
  pageSize: number,
): Promise<{ packs: PackRecord[]; total: number }> {
  const { rows } = await q.query<{
    total: string;
    title: string | null;
    created_at: string | null;
    documents: unknown;
  }>(
    `SELECT (SELECT count(*) FROM document_pack c WHERE c.customer_id = $1 AND c.policy_number = $2)::text AS total,
            pk.title, to_char(pk.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
            (SELECT coalesce(json_agg(json_build_object('id', d.document_id, 'name', d.name,
                                                        'date', d.document_date::text,
                                                        'isNew', NOT EXISTS (SELECT 1 FROM document_seen s
                                                          WHERE s.customer_id = $1 AND s.document_id = d.document_id)) ORDER BY d.position), '[]'::json)
               FROM document d WHERE d.pack_id = pk.pack_id AND d.customer_id = $1) AS documents
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (SELECT * FROM document_pack x WHERE x.customer_id = $1 AND x.policy_number = $2
                          ORDER BY x.created_at DESC, x.pack_id LIMIT $3 OFFSET $4) pk ON true`,
    [customerId, policyNumber, pageSize, (page - 1) * pageSize],
  );
  const total = Number(rows[0]?.total ?? 0);
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

/** The documents of the customer's quotes, by quote number, in their order. */
export async function listQuoteDocuments(
  q: Queryable,
  customerId: string,
  quoteNumbers: readonly string[],
): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const { rows } = await q.query<{ quote_number: string; document_id: string; name: string }>(
    `SELECT quote_number, document_id, name FROM document
      WHERE customer_id = $1 AND quote_number = ANY($2::text[])
      ORDER BY quote_number, position`,
    [customerId, quoteNumbers],
  );
  const byQuote = new Map<string, Array<{ id: string; name: string }>>();
  for (const r of rows) {
    const list = byQuote.get(r.quote_number) ?? [];
    list.push({ id: r.document_id, name: r.name });
    byQuote.set(r.quote_number, list);
  }
  return byQuote;
}

export interface DocumentRecord {
  id: string;
  kind: DocumentKind;
  name: string;
  date: string;
  /** The PDF the insurer made; null for demo data, whose PDF is drawn when asked for. */
  file: FileRef | null;
}

const fileOf = (r: { file_sha256: string | null; file_name: string | null }): FileRef | null =>
  r.file_sha256 && r.file_name ? { sha256: r.file_sha256, fileName: r.file_name } : null;

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
    file_sha256: string | null;
    file_name: string | null;
  }>(
    `SELECT d.document_id, d.kind, d.name, d.document_date::text AS document_date, d.file_sha256, d.file_name
       FROM document d JOIN document_pack pk ON pk.pack_id = d.pack_id
      WHERE d.customer_id = $1 AND pk.customer_id = $1 AND pk.policy_number = $2 AND d.document_id = $3`,
    [customerId, policyNumber, documentId],
  );
  const r = rows[0];
  return r ? { id: r.document_id, kind: r.kind, name: r.name, date: r.document_date, file: fileOf(r) } : null;
}

/** One document of one of the customer's quotes; null when any part of the path is not theirs. */
export async function findQuoteDocument(
  q: Queryable,
  customerId: string,
  quoteNumber: string,
  documentId: string,
): Promise<DocumentRecord | null> {
  const { rows } = await q.query<{
    document_id: string;
    kind: DocumentKind;
    name: string;
    document_date: string;
    file_sha256: string | null;
    file_name: string | null;
  }>(
    `SELECT d.document_id, d.kind, d.name, d.document_date::text AS document_date, d.file_sha256, d.file_name
       FROM document d
      WHERE d.customer_id = $1 AND d.quote_number = $2 AND d.document_id = $3`,
    [customerId, quoteNumber, documentId],
  );
  const r = rows[0];
  return r ? { id: r.document_id, kind: r.kind, name: r.name, date: r.document_date, file: fileOf(r) } : null;
}

/* Writes (the integration API's records, and the demo seed through them) ---------------------------- */

/** Whose pack this is, locked for the transaction; null when no such pack is held. */
export async function lockPack(
  q: Queryable,
  packId: string,
): Promise<{ policyNumber: string; customerId: string } | null> {
  const { rows } = await q.query<{ policy_number: string; customer_id: string }>(
    'SELECT policy_number, customer_id FROM document_pack WHERE pack_id = $1 FOR UPDATE',
    [packId],
  );
  const r = rows[0];
  return r ? { policyNumber: r.policy_number, customerId: r.customer_id } : null;
}

export async function upsertPack(
  q: Queryable,
  pack: { packId: string; customerId: string; policyNumber: string; title: string; createdAt: string },
): Promise<void> {
  await q.query(
    `INSERT INTO document_pack (pack_id, customer_id, policy_number, title, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (pack_id) DO UPDATE SET customer_id = EXCLUDED.customer_id, title = EXCLUDED.title,
       created_at = EXCLUDED.created_at`,
    [pack.packId, pack.customerId, pack.policyNumber, pack.title, pack.createdAt],
  );
}

/** The pack of a policy removed (its documents cascade); whose it was, or null when none was held. */
export async function deletePack(
  q: Queryable,
  policyNumber: string,
  packId: string,
): Promise<{ customerId: string } | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'DELETE FROM document_pack WHERE pack_id = $1 AND policy_number = $2 RETURNING customer_id',
    [packId, policyNumber],
  );
  return rows[0] ? { customerId: rows[0].customer_id } : null;
}

/** The packs held for a policy (the demo seed removes those it no longer makes). */
export async function packIdsOf(q: Queryable, policyNumber: string): Promise<string[]> {
  const { rows } = await q.query<{ pack_id: string }>(
    'SELECT pack_id FROM document_pack WHERE policy_number = $1',
    [policyNumber],
  );
  return rows.map((r) => r.pack_id);
}

/** A pack's or a quote's documents: the owner is exactly one of them. */
export type DocumentOwner =
  | { customerId: string; packId: string; quoteNumber: null }
  | { customerId: string; packId: null; quoteNumber: string };

/** Which of these document ids are held for another pack or quote than `owner`. */
export async function documentIdsHeldElsewhere(
  q: Queryable,
  owner: DocumentOwner,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await q.query<{ document_id: string }>(
    `SELECT document_id FROM document WHERE document_id = ANY($1::text[])
        AND (pack_id IS DISTINCT FROM $2 OR quote_number IS DISTINCT FROM $3)`,
    [ids, owner.packId, owner.quoteNumber],
  );
  return new Set(rows.map((r) => r.document_id));
}

/**
 * Makes the owner's documents exactly these, in this order. Written in one statement, then the ones no
 * longer sent deleted: a file that moves from one document to another is referred to throughout, so it
 * is never released on the way (see migration 092).
 */
export async function replaceDocuments(
  q: Queryable,
  owner: DocumentOwner,
  documents: ReadonlyArray<Omit<DocumentRecord, 'file'> & { file: FileRef | null }>,
): Promise<void> {
  const rows = documents.map((d, position) => ({
    document_id: d.id,
    kind: d.kind,
    name: d.name,
    document_date: d.date,
    position,
    file_sha256: d.file?.sha256 ?? null,
    file_name: d.file?.fileName ?? null,
  }));
  if (rows.length > 0) {
    await q.query(
      `INSERT INTO document (document_id, customer_id, pack_id, quote_number, kind, name, document_date,
                             position, file_sha256, file_name)
       SELECT x.document_id, $2, $3, $4, x.kind, x.name, x.document_date, x.position, x.file_sha256, x.file_name
         FROM jsonb_to_recordset($1::jsonb) AS x(document_id text, kind text, name text, document_date date,
                                                  position integer, file_sha256 text, file_name text)
       ON CONFLICT (document_id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name,
         document_date = EXCLUDED.document_date, position = EXCLUDED.position,
         file_sha256 = EXCLUDED.file_sha256, file_name = EXCLUDED.file_name, customer_id = EXCLUDED.customer_id`,
      [JSON.stringify(rows), owner.customerId, owner.packId, owner.quoteNumber],
    );
  }
  await q.query(
    `DELETE FROM document WHERE (pack_id = $1 OR quote_number = $2) AND NOT (document_id = ANY($3::text[]))`,
    [owner.packId, owner.quoteNumber, rows.map((r) => r.document_id)],
  );
}
