import type { MessageCategory } from '@portal/contracts/message';
import type { Queryable } from '../../platform/db';

/*
 * The message module's tables (migration 175): customer_message, a customer's messages from the insurer,
 * and customer_message_read, those they have opened. Every read of a customer's messages takes the
 * customer id, so another customer's message ids find nothing in the same query; an expired message is
 * read as if it were not there.
 */

/** What a message says and links to: a change of any of it is notified, and makes it unread again. */
export interface MessageContent {
  subject: string;
  body: string;
  category: MessageCategory;
  policyNumber: string | null;
  documentId: string | null;
}

export interface MessageWrite extends MessageContent {
  customerId: string;
  messageId: string;
  /** The insurer's sent time; null: the time first received (kept when the record is written again). */
  sentAt: string | null;
  expiresAt: string | null;
}

export interface MessageRow extends MessageContent {
  messageId: string;
  /** ISO 8601, UTC. */
  receivedAt: string;
  isUnread: boolean;
}

interface Row {
  message_id: string;
  subject: string;
  body: string;
  category: MessageCategory;
  policy_number: string | null;
  document_id: string | null;
  received_at: string;
  is_unread: boolean;
}

const toMessage = (r: Row): MessageRow => ({
  messageId: r.message_id,
  subject: r.subject,
  body: r.body,
  category: r.category,
  policyNumber: r.policy_number,
  documentId: r.document_id,
  receivedAt: r.received_at,
  isUnread: r.is_unread,
});

/** The columns a customer's message is read with ($1 the customer; `m` the message). */
const columns = `m.message_id, m.subject, m.body, m.category, m.policy_number, m.document_id,
  to_char(m.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS received_at,
  NOT EXISTS (SELECT 1 FROM customer_message_read r
               WHERE r.customer_id = $1 AND r.message_id = m.message_id) AS is_unread`;

/** Shown to the customer at `now`: not expired. */
const current = '(m.expires_at IS NULL OR m.expires_at > $2)';

/** What the message held says, locked for the write's transaction; undefined when none is held. */
export async function lockMessage(
  q: Queryable,
  customerId: string,
  messageId: string,
): Promise<MessageContent | undefined> {
  const { rows } = await q.query<Omit<Row, 'message_id' | 'received_at' | 'is_unread'>>(
    `SELECT subject, body, category, policy_number, document_id FROM customer_message
      WHERE customer_id = $1 AND message_id = $2 FOR UPDATE`,
    [customerId, messageId],
  );
  const r = rows[0];
  return r
    ? {
        subject: r.subject,
        body: r.body,
        category: r.category,
        policyNumber: r.policy_number,
        documentId: r.document_id,
      }
    : undefined;
}

/** Writes one message as the insurer holds it. */
export async function upsertMessage(q: Queryable, m: MessageWrite, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO customer_message (customer_id, message_id, subject, body, category, policy_number,
                                   document_id, sent_at, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, $10::timestamptz), $9, $10, $10)
     ON CONFLICT (customer_id, message_id) DO UPDATE SET subject = EXCLUDED.subject, body = EXCLUDED.body,
       category = EXCLUDED.category, policy_number = EXCLUDED.policy_number,
       document_id = EXCLUDED.document_id,
       sent_at = coalesce($8::timestamptz, customer_message.created_at),
       expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at`,
    [
      m.customerId,
      m.messageId,
      m.subject,
      m.body,
      m.category,
      m.policyNumber,
      m.documentId,
      m.sentAt,
      m.expiresAt,
      now,
    ],
  );
}

/** Removes one message (and whether it was read); answers whether it was there. */
export async function deleteMessage(q: Queryable, customerId: string, messageId: string): Promise<boolean> {
  const { rowCount } = await q.query(
    'DELETE FROM customer_message WHERE customer_id = $1 AND message_id = $2',
    [customerId, messageId],
  );
  return rowCount > 0;
}

/** The message is unread again, on every device (it changed). */
export async function markUnread(q: Queryable, customerId: string, messageId: string): Promise<void> {
  await q.query('DELETE FROM customer_message_read WHERE customer_id = $1 AND message_id = $2', [
    customerId,
    messageId,
  ]);
}

/** Records that the customer opened the message (again: nothing changes). */
export async function markRead(
  q: Queryable,
  customerId: string,
  messageIds: readonly string[],
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO customer_message_read (customer_id, message_id, read_at)
     SELECT $1, m.message_id, $3 FROM customer_message m
      WHERE m.customer_id = $1 AND m.message_id = ANY($2::text[])
     ON CONFLICT (customer_id, message_id) DO NOTHING`,
    [customerId, messageIds, at],
  );
}

/** One page of the customer's messages shown at `now`, newest first, with how many there are. */
export async function listMessages(
  q: Queryable,
  customerId: string,
  now: Date,
  page: number,
  pageSize: number,
): Promise<{ messages: MessageRow[]; total: number }> {
  const [list, count] = await Promise.all([
    q.query<Row>(
      `SELECT ${columns} FROM customer_message m
        WHERE m.customer_id = $1 AND ${current}
        ORDER BY m.sent_at DESC, m.message_id DESC LIMIT $3 OFFSET $4`,
      [customerId, now, pageSize, (page - 1) * pageSize],
    ),
    q.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM customer_message m WHERE m.customer_id = $1 AND ${current}`,
      [customerId, now],
    ),
  ]);
  return { messages: list.rows.map(toMessage), total: Number(count.rows[0]?.total ?? 0) };
}

/** One of the customer's messages shown at `now`; null when it is not theirs, or has expired. */
export async function findMessage(
  q: Queryable,
  customerId: string,
  messageId: string,
  now: Date,
): Promise<MessageRow | null> {
  const { rows } = await q.query<Row>(
    `SELECT ${columns} FROM customer_message m
      WHERE m.customer_id = $1 AND ${current} AND m.message_id = $3`,
    [customerId, now, messageId],
  );
  const r = rows[0];
  return r ? toMessage(r) : null;
}

/** How many of the customer's messages shown at `now` they have not opened. */
export async function countUnread(q: Queryable, customerId: string, now: Date): Promise<number> {
  const { rows } = await q.query<{ unread: number }>(
    `SELECT count(*)::int AS unread FROM customer_message m
      WHERE m.customer_id = $1 AND ${current}
        AND NOT EXISTS (SELECT 1 FROM customer_message_read r
                         WHERE r.customer_id = $1 AND r.message_id = m.message_id)`,
    [customerId, now],
  );
  return Number(rows[0]?.unread ?? 0);
}

/** An erased customer's messages and what they had opened; answers how many messages went. */
export async function eraseMessages(q: Queryable, customerId: string): Promise<number> {
  await q.query('DELETE FROM customer_message_read WHERE customer_id = $1', [customerId]);
  const { rowCount } = await q.query('DELETE FROM customer_message WHERE customer_id = $1', [customerId]);
  return rowCount;
}
