import type { Queryable } from '../../../platform/db';
import { date, dateOrNull } from './mappers';

/* A new email address or mobile number waiting for the code sent to it (issue 26, decision 026). */

export interface ContactChangeRow {
  id: string;
  userId: string;
  kind: 'email' | 'mobile';
  newValue: string;
  deliverable: boolean;
  codeHash: string;
  salt: string;
  maxAttempts: number;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  deadAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- a database row */
const toContactChange = (r: any): ContactChangeRow => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  newValue: r.new_value,
  deliverable: r.deliverable === true,
  codeHash: r.code_hash,
  salt: r.salt,
  maxAttempts: Number(r.max_attempts),
  attempts: Number(r.attempts),
  createdAt: date(r.created_at),
  expiresAt: date(r.expires_at),
  usedAt: dateOrNull(r.used_at),
  deadAt: dateOrNull(r.dead_at),
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/** When the account last asked for a change of this kind (for the 30 seconds between sends). */
export async function lastContactChangeAt(
  q: Queryable,
  userId: string,
  kind: 'email' | 'mobile',
): Promise<Date | null> {
  const { rows } = await q.query<{ at: Date | null }>(
    'SELECT max(created_at) AS at FROM identity_contact_change WHERE user_id = $1 AND kind = $2',
    [userId, kind],
  );
  return dateOrNull(rows[0]?.at);
}

/** Starts a change: the earlier live one of this kind dies. */
export async function insertContactChange(
  q: Queryable,
  row: Omit<ContactChangeRow, 'attempts' | 'usedAt' | 'deadAt'>,
): Promise<void> {
  await q.query(
    `UPDATE identity_contact_change SET dead_at = $3
      WHERE user_id = $1 AND kind = $2 AND used_at IS NULL AND dead_at IS NULL`,
    [row.userId, row.kind, row.createdAt],
  );
  await q.query(
    `INSERT INTO identity_contact_change (id, user_id, kind, new_value, deliverable, code_hash, salt,
       max_attempts, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.userId,
      row.kind,
      row.newValue,
      row.deliverable,
      row.codeHash,
      row.salt,
      row.maxAttempts,
      row.createdAt,
      row.expiresAt,
    ],
  );
}

/** The account's newest change of this kind, whatever its state, locked for the caller's transaction. */
export async function latestContactChange(
  q: Queryable,
  userId: string,
  kind: 'email' | 'mobile',
): Promise<ContactChangeRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_contact_change WHERE user_id = $1 AND kind = $2
      ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [userId, kind],
  );
  return rows[0] ? toContactChange(rows[0]) : null;
}

export async function killContactChange(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query('UPDATE identity_contact_change SET dead_at = $2 WHERE id = $1 AND dead_at IS NULL', [
    id,
    at,
  ]);
}

export async function recordContactChangeAttempt(
  q: Queryable,
  id: string,
  at: Date,
  exhausted: boolean,
): Promise<void> {
  await q.query(
    `UPDATE identity_contact_change SET attempts = attempts + 1${exhausted ? ', dead_at = $2' : ''} WHERE id = $1`,
    exhausted ? [id, at] : [id],
  );
}

/** Marks the change used; false when another request used or killed it first. */
export async function useContactChange(q: Queryable, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE identity_contact_change SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND dead_at IS NULL',
    [id, at],
  );
  return rowCount === 1;
}

/** The account's sign-in name becomes `login` (lower case). */
export async function setLogin(q: Queryable, userId: string, login: string): Promise<void> {
  await q.query('UPDATE identity_user SET login = $2 WHERE id = $1', [userId, login.toLowerCase()]);
}

/** Deletes the account; everything of it goes too (ON DELETE CASCADE). Answers whether it was there. */
export async function deleteUser(q: Queryable, userId: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM identity_user WHERE id = $1', [userId]);
  return rowCount === 1;
}
