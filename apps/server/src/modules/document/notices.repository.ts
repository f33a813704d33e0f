import type { Queryable } from '../../platform/db';

/* The document notices' table (migration 160): one row per new or changed document of a customer to tell. */

/**
 * Where a document is listed: the bills page, a policy's documents page, or the dashboard (quotes); or a
 * customer message, in "Your messages" (its kind is the message's category).
 */
export type NoticeCategory = 'bill' | 'policy' | 'quote' | 'message';

export interface NoticeInput {
  documentId: string;
  category: NoticeCategory;
  kind: string;
  change: 'new' | 'updated';
  /** A pack's policy (its documents page), else null. */
  policyNumber: string | null;
}

/** How a notice is sent: by email, or by text message (the customer chose it). */
export type NoticeChannel = 'email' | 'sms';

export interface NoticeRow extends NoticeInput {
  id: number;
  channel: NoticeChannel;
  createdAt: Date;
}

interface Row {
  id: string | number;
  document_id: string;
  category: NoticeCategory;
  kind: string;
  change: 'new' | 'updated';
  policy_number: string | null;
  channel: NoticeChannel;
  created_at: Date | string;
}

const toNotice = (r: Row): NoticeRow => ({
  id: Number(r.id),
  documentId: r.document_id,
  category: r.category,
  kind: r.kind,
  change: r.change,
  policyNumber: r.policy_number,
  channel: r.channel,
  createdAt: new Date(r.created_at),
});

const columns = 'id, document_id, category, kind, change, policy_number, channel, created_at';

/** One pending notice per document and channel the customer is told by. */
export async function insertNotices(
  q: Queryable,
  customerId: string,
  notices: readonly NoticeInput[],
  channels: readonly NoticeChannel[],
  now: Date,
): Promise<void> {
  if (notices.length === 0 || channels.length === 0) return;
  await q.query(
    `INSERT INTO document_notice (customer_id, document_id, category, kind, change, policy_number, channel,
                                  created_at)
     SELECT $2, x.document_id, x.category, x.kind, x.change, x.policy_number, c.channel, $3
       FROM jsonb_to_recordset($1::jsonb) AS x(document_id text, category text, kind text, change text,
                                                policy_number text)
      CROSS JOIN unnest($4::text[]) AS c(channel)`,
    [
      JSON.stringify(
        notices.map((n) => ({
          document_id: n.documentId,
          category: n.category,
          kind: n.kind,
          change: n.change,
          policy_number: n.policyNumber,
        })),
      ),
      customerId,
      now,
      channels,
    ],
  );
}

/**
 * Customers whose first pending notice of one of these channels is at or before `cutoff`, that one
 * oldest first.
 */
export async function dueCustomers(
  q: Queryable,
  cutoff: Date,
  channels: readonly NoticeChannel[],
  limit: number,
): Promise<string[]> {
  const { rows } = await q.query<{ customer_id: string }>(
    `SELECT customer_id FROM document_notice WHERE status = 'pending' AND channel = ANY($2::text[])
      GROUP BY customer_id HAVING min(created_at) <= $1 ORDER BY min(created_at), customer_id LIMIT $3`,
    [cutoff, channels, limit],
  );
  return rows.map((r) => r.customer_id);
}

/**
 * Takes the customer's notices for this transaction: false when another instance has them now (a
 * transaction-scoped advisory lock, so a pass that dies lets go of them).
 */
export async function tryLockCustomerNotices(tx: Queryable, customerId: string): Promise<boolean> {
  const { rows } = await tx.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
    [`document-notice:${customerId}`],
  );
  return rows[0]?.locked === true;
}

/**
 * The customer's pending notices of a channel, oldest first (read after taking the lock: what is still
 * pending).
 */
export async function pendingNotices(
  tx: Queryable,
  customerId: string,
  channel: NoticeChannel,
): Promise<NoticeRow[]> {
  const { rows } = await tx.query<Row>(
    `SELECT ${columns} FROM document_notice WHERE customer_id = $1 AND status = 'pending' AND channel = $2
      ORDER BY created_at, id FOR UPDATE`,
    [customerId, channel],
  );
  return rows.map(toNotice);
}

export async function markNotices(
  tx: Queryable,
  ids: readonly number[],
  status: 'sent' | 'dropped',
  batchId: string | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE document_notice SET status = $2, batch_id = $3, sent_at = $4 WHERE id = ANY($1::bigint[])`,
    [ids, status, batchId, now],
  );
}

/** The notices one email listed, marked failed (it could not be delivered). */
export async function failBatch(tx: Queryable, batchId: string): Promise<NoticeRow[]> {
  const { rows } = await tx.query<Row>(
    `UPDATE document_notice SET status = 'failed' WHERE batch_id = $1 RETURNING ${columns}`,
    [batchId],
  );
  return rows.map(toNotice).sort((a, b) => a.id - b.id);
}

/** Pending notices of these customers go unsent (the demo seed's own loads). */
export async function discardPending(q: Queryable, customerIds: readonly string[]): Promise<void> {
  await q.query(`DELETE FROM document_notice WHERE status = 'pending' AND customer_id = ANY($1::text[])`, [
    customerIds,
  ]);
}

export async function eraseNotices(tx: Queryable, customerId: string): Promise<number> {
  const { rowCount } = await tx.query('DELETE FROM document_notice WHERE customer_id = $1', [customerId]);
  return rowCount;
}

/** What says a policy or quote document changed: its kind, name, date and file. */
export async function heldDocumentSignatures(
  tx: Queryable,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await tx.query<{ document_id: string; signature: string }>(
    `SELECT document_id,
            concat_ws('|', kind, name, document_date::text, coalesce(file_sha256, ''), coalesce(file_name, '')) AS signature
       FROM document WHERE document_id = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.document_id, r.signature]));
}

/** The same of a billing document (with its policy number), or undefined when not held. */
export async function heldBillingSignature(tx: Queryable, id: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ signature: string }>(
    `SELECT concat_ws('|', kind, name, document_date::text, coalesce(policy_number, ''),
                      coalesce(file_sha256, ''), coalesce(file_name, '')) AS signature
       FROM billing_document WHERE document_id = $1`,
    [id],
  );
  return rows[0]?.signature;
}

/** Signatures as the SQL above makes them, for a document about to be written. */
export const signatureOf = (parts: ReadonlyArray<string | null | undefined>): string =>
  parts.map((p) => p ?? '').join('|');
