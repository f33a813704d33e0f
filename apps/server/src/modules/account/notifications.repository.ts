import type { Queryable } from '../../platform/db';
import type { DemoNotification } from '../../db/demo-portfolio';

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

/* Demo data ------------------------------------------------------------------------------------- */

export async function upsertNotification(q: Queryable, n: DemoNotification): Promise<void> {
  await q.query(
    `INSERT INTO notification (notification_id, type, starts_at, ends_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (notification_id) DO UPDATE SET type = EXCLUDED.type, starts_at = EXCLUDED.starts_at,
       ends_at = EXCLUDED.ends_at`,
    [n.notificationId, n.type, n.startsAt, n.endsAt],
  );
}

/** Gives the customer exactly these notifications, each NEW again (a demo shows its modals afresh). */
export async function resetDemoNotifications(
  q: Queryable,
  customerId: string,
  notificationIds: string[],
  now: Date,
): Promise<void> {
  await q.query('DELETE FROM customer_notification WHERE customer_id = $1', [customerId]);
  for (const notificationId of notificationIds) {
    await q.query(
      `INSERT INTO customer_notification (id, customer_id, notification_id, status, updated_at)
       VALUES ($1, $2, $3, 'NEW', $4)`,
      [`${customerId}-${notificationId}`, customerId, notificationId, now],
    );
  }
}
