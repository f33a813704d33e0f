import type { Queryable } from '../../../platform/db';
import type { LinkTokenKind } from './rows';

/* Emailed link tokens: activation, recovery and unlock. */

/** Stores a new link token and voids every earlier unused one of the same kind for the user. */
export async function insertLinkToken(
  q: Queryable,
  token: {
    tokenHash: string;
    userId: string;
    kind: LinkTokenKind;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await q.query(
    `UPDATE identity_link_token SET voided_at = $3
     WHERE user_id = $1 AND kind = $2 AND used_at IS NULL AND voided_at IS NULL`,
    [token.userId, token.kind, token.createdAt],
  );
  await q.query(
    `INSERT INTO identity_link_token (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [token.tokenHash, token.userId, token.kind, token.createdAt, token.expiresAt],
  );
}

/** Atomic single use of a link token that is neither used, voided nor expired. */
export async function consumeLinkToken(
  q: Queryable,
  tokenHash: string,
  kind: LinkTokenKind,
  now: Date,
): Promise<{ userId: string } | null> {
  const { rows } = await q.query<{ user_id: string }>(
    `UPDATE identity_link_token SET used_at = $3
     WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND voided_at IS NULL AND expires_at > $3
     RETURNING user_id`,
    [tokenHash, kind, now],
  );
  return rows[0] ? { userId: rows[0].user_id } : null;
}

export async function voidLinkTokens(
  q: Queryable,
  userId: string,
  kind: LinkTokenKind,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE identity_link_token SET voided_at = $3
     WHERE user_id = $1 AND kind = $2 AND used_at IS NULL AND voided_at IS NULL`,
    [userId, kind, now],
  );
}
