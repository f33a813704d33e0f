import { createHash } from 'node:crypto';
import type { Queryable } from '../../platform/db';

export interface NotificationRecord {
  id: string;
  notificationId: string;
  type: 'WELCOME' | 'SPLASH';
  status: 'NEW' | 'SHOWN' | 'CLOSED';
  startDate: string | null;
  endDate: string | null;
}

interface Row {
  id: string;
  notification_id: string;
  type: 'WELCOME' | 'SPLASH';
  status: 'NEW' | 'SHOWN' | 'CLOSED';
  starts_at: string | null;
  ends_at: string | null;
}

const columns = `cn.id, cn.notification_id, n.type, cn.status,
  to_char(n.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS starts_at,
  to_char(n.ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ends_at`;

const toRecord = (r: Row): NotificationRecord => ({
  id: r.id,
  notificationId: r.notification_id,
  type: r.type,
  status: r.status,
  startDate: r.starts_at,
  endDate: r.ends_at,
});

export async function listCustomerNotifications(
  q: Queryable,
  customerId: string,
): Promise<NotificationRecord[]> {
  const { rows } = await q.query<Row>(
    `SELECT ${columns} FROM customer_notification cn JOIN notification n ON n.notification_id = cn.notification_id
      WHERE cn.customer_id = $1 ORDER BY n.type, cn.id`,
    [customerId],
  );
  return rows.map(toRecord);
}

/**
 * Moves one of the customer's notifications to SHOWN or CLOSED, never from CLOSED back to SHOWN, in one
 * statement: null when it is not theirs (or the two ids do not match), 'closed' when it was already closed.
 */
export async function updateNotificationStatus(
  q: Queryable,
  customerId: string,
  id: string,
  notificationId: string,
  status: 'SHOWN' | 'CLOSED',
  now: Date,
): Promise<NotificationRecord | 'closed' | null> {
  const { rows } = await q.query<Row & { updated: boolean }>(
    `WITH target AS (
       SELECT cn.id FROM customer_notification cn
        WHERE cn.customer_id = $1 AND cn.id = $2 AND cn.notification_id = $3 FOR UPDATE),
     changed AS (
       UPDATE customer_notification cn SET status = $4, updated_at = $5
        FROM target WHERE cn.id = target.id AND NOT (cn.status = 'CLOSED' AND $4 = 'SHOWN')
        RETURNING cn.id)
     SELECT ${columns}, EXISTS (SELECT 1 FROM changed) AS updated
       FROM customer_notification cn JOIN notification n ON n.notification_id = cn.notification_id
      WHERE cn.id IN (SELECT id FROM target)`,
    [customerId, id, notificationId, status, now],
  );
  const row = rows[0];
  if (!row) return null;
  if (!row.updated) return 'closed';
  // The SELECT sees the row as it was before this statement's UPDATE: answer the new status.
  return { ...toRecord(row), status };
}

/* The insurer's notifications (the integration API) --------------------------------------------- */

export async function upsertNotification(
  q: Queryable,
  notificationId: string,
  n: { type: 'WELCOME' | 'SPLASH'; startsAt: string | null; endsAt: string | null },
): Promise<void> {
  await q.query(
    `INSERT INTO notification (notification_id, type, starts_at, ends_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (notification_id) DO UPDATE SET type = EXCLUDED.type, starts_at = EXCLUDED.starts_at,
       ends_at = EXCLUDED.ends_at`,
    [notificationId, n.type, n.startsAt, n.endsAt],
  );
}

/** Removes a notification; the customers' copies go with it (the foreign key cascades). */
export async function deleteNotification(q: Queryable, notificationId: string): Promise<boolean> {
  const result = await q.query('DELETE FROM notification WHERE notification_id = $1', [notificationId]);
  return result.rowCount > 0;
}

export async function notificationExists(q: Queryable, notificationId: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM notification WHERE notification_id = $1', [notificationId]);
  return rows.length > 0;
}

/**
 * Gives the customer the notification, NEW; one they have already keeps its status, so a newer version
 * of the assignment never shows a modal again to someone who has seen it.
 */
export async function assignNotification(
  q: Queryable,
  customerId: string,
  notificationId: string,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO customer_notification (id, customer_id, notification_id, status, updated_at)
     VALUES ($1, $2, $3, 'NEW', $4) ON CONFLICT (customer_id, notification_id) DO NOTHING`,
    [assignmentId(customerId, notificationId), customerId, notificationId, now],
  );
}

// The row id must itself be an opaque id (at most 64 characters): a long notification id is hashed.
function assignmentId(customerId: string, notificationId: string): string {
  const id = `${customerId}-${notificationId}`;
  if (id.length <= 64) return id;
  return `${customerId}-${createHash('sha256').update(notificationId).digest('base64url').slice(0, 43)}`;
}

export async function withdrawNotification(
  q: Queryable,
  customerId: string,
  notificationId: string,
): Promise<boolean> {
  const result = await q.query(
    'DELETE FROM customer_notification WHERE customer_id = $1 AND notification_id = $2',
    [customerId, notificationId],
  );
  return result.rowCount > 0;
}

/* Demo data ------------------------------------------------------------------------------------- */

/** Sets the demo customer's notifications NEW again (a demo shows its modals afresh each day). */
export async function resetDemoNotifications(q: Queryable, customerId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE customer_notification SET status = 'NEW', updated_at = $2 WHERE customer_id = $1 AND status <> 'NEW'`,
    [customerId, now],
  );
}
