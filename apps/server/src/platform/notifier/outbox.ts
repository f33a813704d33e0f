import type { Clock } from '../clock';
import type { Db, Queryable } from '../db';
import { normaliseRecipient, type NotifierAdapter, type OutboundMessage } from './message';

/**
 * Records one message in the outbox, in the caller's transaction when `q` is one. The outbox is a table
 * of ours, so a message for it needs no queue: it is "delivered" when the caller's transaction commits,
 * and a test or a person reads it at once.
 */
export async function recordInOutbox(q: Queryable, clock: Clock, message: OutboundMessage): Promise<void> {
  await q.query(
    `INSERT INTO outbox_message (created_at, channel, recipient, kind, subject, body, html, customer_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      clock.now(),
      message.channel,
      normaliseRecipient(message.to),
      message.kind,
      message.subject ?? null,
      message.text,
      message.channel === 'email' ? (message.html ?? null) : null,
      message.customerId ?? null,
    ],
  );
}

/**
 * The default adapter: every message goes into the `outbox_message` table, where the dev outbox page
 * and API (never in production) let a person or a test read the code or link.
 */
export function outboxAdapter(db: Db, clock: Clock): NotifierAdapter {
  return {
    name: 'outbox',
    deliver: (message) => recordInOutbox(db, clock, message),
  };
}

export interface OutboxRow {
  id: number;
  createdAt: string;
  channel: 'sms' | 'voice' | 'email';
  to: string;
  kind: string;
  subject: string | null;
  /** The text (the plain-text part of an email). */
  body: string;
  /** An email's HTML part; null for texts and calls. */
  html: string | null;
}

/** The newest messages, optionally only those to one recipient (any spelling of the number or address). */
export async function readOutbox(db: Db, to?: string, limit = 50): Promise<OutboxRow[]> {
  const { rows } = await db.query<{
    id: number | string;
    created_at: Date;
    channel: OutboxRow['channel'];
    recipient: string;
    kind: string;
    subject: string | null;
    body: string;
    html: string | null;
  }>(
    `SELECT id, created_at, channel, recipient, kind, subject, body, html FROM outbox_message
     WHERE ($1::text IS NULL OR recipient = $1) ORDER BY id DESC LIMIT $2`,
    [to ? normaliseRecipient(to) : null, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    createdAt: new Date(r.created_at).toISOString(),
    channel: r.channel,
    to: r.recipient,
    kind: r.kind,
    subject: r.subject,
    body: r.body,
    html: r.html,
  }));
}
