import type { Queryable } from '../../../platform/db';
import { toCode, dateOrNull } from './mappers';
import type { CodeRow } from './rows';

/* One-time codes sent for a transaction: hashed, with attempts and expiry. */

export async function lastCodeSentAt(
  q: Queryable,
  transactionId: string,
  factorId: string,
): Promise<Date | null> {
  const { rows } = await q.query<{ at: Date | null }>(
    'SELECT max(created_at) AS at FROM identity_code WHERE transaction_id = $1 AND factor_id = $2',
    [transactionId, factorId],
  );
  return dateOrNull(rows[0]?.at);
}

export async function killCodes(q: Queryable, transactionId: string, now: Date): Promise<void> {
  await q.query(
    'UPDATE identity_code SET dead_at = $2 WHERE transaction_id = $1 AND dead_at IS NULL AND used_at IS NULL',
    [transactionId, now],
  );
}

export async function insertCode(
  q: Queryable,
  code: Omit<CodeRow, 'id' | 'attempts' | 'usedAt' | 'deadAt'>,
): Promise<void> {
  await q.query(
    `INSERT INTO identity_code (transaction_id, factor_id, code_hash, salt, code_length, max_attempts, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      code.transactionId,
      code.factorId,
      code.codeHash,
      code.salt,
      code.codeLength,
      code.maxAttempts,
      code.createdAt,
      code.expiresAt,
    ],
  );
}

/** The transaction's newest code for the factor, whatever its state. */
export async function latestCode(
  q: Queryable,
  transactionId: string,
  factorId: string,
): Promise<CodeRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_code WHERE transaction_id = $1 AND factor_id = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [transactionId, factorId],
  );
  return rows[0] ? toCode(rows[0]) : null;
}

export async function recordCodeAttempt(
  q: Queryable,
  codeId: number,
  now: Date,
  exhausted: boolean,
): Promise<void> {
  await q.query(
    `UPDATE identity_code SET attempts = attempts + 1${exhausted ? ', dead_at = $2' : ''} WHERE id = $1`,
    exhausted ? [codeId, now] : [codeId],
  );
}

export async function markCodeDead(q: Queryable, codeId: number, now: Date): Promise<void> {
  await q.query('UPDATE identity_code SET dead_at = $2 WHERE id = $1 AND dead_at IS NULL', [codeId, now]);
}

/** Marks the code used; false when another request used or killed it first. */
export async function useCode(q: Queryable, codeId: number, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE identity_code SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND dead_at IS NULL',
    [codeId, now],
  );
  return rowCount === 1;
}
