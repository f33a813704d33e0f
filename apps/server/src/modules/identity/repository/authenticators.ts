import type { Queryable } from '../../../platform/db';
import { dateOrNull } from './mappers';

/* Second factors other than a phone number (identity_authenticator): an authenticator app, backup codes. */

type AuthenticatorKind = 'totp' | 'backup_codes';

export interface AuthenticatorRow {
  id: string;
  userId: string;
  kind: AuthenticatorKind;
  status: 'PENDING_ACTIVATION' | 'ACTIVE';
  name: string;
  secretEncrypted: string | null;
  lastUsedStep: number | null;
  createdAt: Date;
  activatedAt: Date | null;
  lastUsedAt: Date | null;
}

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- driver rows are untyped; every column is named */
const toAuthenticator = (r: any): AuthenticatorRow => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  status: r.status,
  name: r.name,
  secretEncrypted: r.secret_encrypted,
  lastUsedStep: r.last_used_step === null ? null : Number(r.last_used_step),
  createdAt: dateOrNull(r.created_at) ?? new Date(0),
  activatedAt: dateOrNull(r.activated_at),
  lastUsedAt: dateOrNull(r.last_used_at),
});

/** The user's authenticators, oldest first; `forUpdate` locks them. */
export async function listAuthenticators(
  q: Queryable,
  userId: string,
  forUpdate = false,
): Promise<AuthenticatorRow[]> {
  const { rows } = await q.query(
    `SELECT * FROM identity_authenticator WHERE user_id = $1 ORDER BY CASE kind WHEN 'totp' THEN 0 ELSE 1 END, created_at, id${forUpdate ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return rows.map(toAuthenticator);
}

export async function findAuthenticator(
  q: Queryable,
  userId: string,
  id: string,
  forUpdate = false,
): Promise<AuthenticatorRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_authenticator WHERE user_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [userId, id],
  );
  return rows[0] ? toAuthenticator(rows[0]) : null;
}

export async function insertAuthenticator(q: Queryable, row: AuthenticatorRow): Promise<void> {
  await q.query(
    `INSERT INTO identity_authenticator
       (id, user_id, kind, status, name, secret_encrypted, last_used_step, created_at, activated_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.userId,
      row.kind,
      row.status,
      row.name,
      row.secretEncrypted,
      row.lastUsedStep,
      row.createdAt,
      row.activatedAt,
      row.lastUsedAt,
    ],
  );
}

/** Records an accepted TOTP code's step (and activates a pending factor). */
/** Replaces an app's sealed secret (re-sealed under the current key). */
export async function resealSecret(q: Queryable, id: string, sealed: string): Promise<void> {
  await q.query('UPDATE identity_authenticator SET secret_encrypted = $2 WHERE id = $1', [id, sealed]);
}

export async function recordTotpUse(q: Queryable, id: string, step: number, at: Date): Promise<void> {
  await q.query(
    `UPDATE identity_authenticator
     SET last_used_step = $2, last_used_at = $3, status = 'ACTIVE', activated_at = COALESCE(activated_at, $3)
     WHERE id = $1`,
    [id, step, at],
  );
}

export async function deleteAuthenticator(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM identity_authenticator WHERE id = $1', [id]);
}

/** Replaces the factor's backup codes with `hashes`. */
export async function replaceBackupCodes(
  q: Queryable,
  factorId: string,
  hashes: string[],
  at: Date,
  keyId: string,
) {
  await q.query('DELETE FROM identity_backup_code WHERE factor_id = $1', [factorId]);
  for (const hash of hashes) {
    await q.query(
      'INSERT INTO identity_backup_code (factor_id, code_hash, created_at, key_id) VALUES ($1, $2, $3, $4)',
      [factorId, hash, at, keyId],
    );
  }
}

/** Uses the unused code with one of these hashes (one per key); false when there is none (wrong, or used before). */
export async function useBackupCode(
  q: Queryable,
  factorId: string,
  hashes: string[],
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE identity_backup_code SET used_at = $3
      WHERE factor_id = $1 AND code_hash = ANY($2::text[]) AND used_at IS NULL`,
    [factorId, hashes, at],
  );
  if (rowCount === 0) return false;
  await q.query('UPDATE identity_authenticator SET last_used_at = $2 WHERE id = $1', [factorId, at]);
  return true;
}

/** How many of the factor's codes are still unused. */
export async function backupCodesLeft(q: Queryable, factorId: string): Promise<number> {
  const { rows } = await q.query<{ n: number | string }>(
    'SELECT count(*) AS n FROM identity_backup_code WHERE factor_id = $1 AND used_at IS NULL',
    [factorId],
  );
  return Number(rows[0]?.n ?? 0);
}
