import type { Queryable } from '../../platform/db';

/** Stores one contact-us message; answers its id. */
export async function insertContactMessage(
  q: Queryable,
  message: { customerId: string; productType: string; messageType: string; messageText: string; at: Date },
): Promise<string> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO contact_message (customer_id, product_type, message_type, message_text, created_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id`,
    [message.customerId, message.productType, message.messageType, message.messageText, message.at],
  );
  return rows[0]!.id;
}
