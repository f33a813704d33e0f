import type { Queryable } from '../../../platform/db';

/* One-time session tokens that complete the authorize step. */

export async function insertSessionToken(
  q: Queryable,
  token: { tokenHash: string; userId: string; createdAt: Date; expiresAt: Date; amr: string[] },
): Promise<void> {
  await q.query(
    'INSERT INTO identity_session_token (token_hash, user_id, created_at, expires_at, amr) VALUES ($1, $2, $3, $4, $5)',
    [token.tokenHash, token.userId, token.createdAt, token.expiresAt, token.amr],
  );
}

/** Atomic single use: only one caller ever gets the row back. */
export async function consumeSessionToken(
  q: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; amr: string[] } | null> {
  const { rows } = await q.query<{ user_id: string; amr: string[] }>(
    `UPDATE identity_session_token SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
     RETURNING user_id, amr`,
    [tokenHash, now],
  );
  return rows[0] ? { userId: rows[0].user_id, amr: rows[0].amr } : null;
}
