import type { Queryable } from '../../platform/db';

export async function insertRegistrationRequest(
  q: Queryable,
  row: { customerId: string; userId: string; email: string; createdAt: Date },
): Promise<void> {
  await q.query(
    'INSERT INTO registration_request (customer_id, user_id, email, created_at) VALUES ($1, $2, $3, $4)',
    [row.customerId, row.userId, row.email, row.createdAt],
  );
}

/** The newest registration of the identity user, locked for completion. */
export async function latestRegistrationForUpdate(
  q: Queryable,
  userId: string,
): Promise<{ id: number; completedAt: Date | null } | null> {
  const { rows } = await q.query<{ id: number | string; completed_at: Date | null }>(
    'SELECT id, completed_at FROM registration_request WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE',
    [userId],
  );
  const row = rows[0];
  return row
    ? { id: Number(row.id), completedAt: row.completed_at ? new Date(row.completed_at) : null }
    : null;
}

export async function markRegistrationCompleted(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query(
    'UPDATE registration_request SET completed_at = $2 WHERE user_id = $1 AND completed_at IS NULL',
    [userId, at],
  );
}
