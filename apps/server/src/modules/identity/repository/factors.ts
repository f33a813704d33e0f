import type { Queryable } from '../../../platform/db';
import { toFactor } from './mappers';
import type { FactorRow } from './rows';

/* The second factors of a user (text and voice numbers). */

export async function listFactors(q: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await q.query(
    // sms first, then calls to a mobile, then to a landline: the order the SPA offers them.
    `SELECT * FROM identity_factor WHERE user_id = $1
     ORDER BY CASE factor_type WHEN 'sms' THEN 0 ELSE 1 END, is_mobile DESC, created_at, id`,
    [userId],
  );
  return rows.map(toFactor);
}

/** A code sent to this number finished a transaction. */
export async function recordFactorUse(q: Queryable, factorId: string, at: Date): Promise<void> {
  await q.query('UPDATE identity_factor SET last_used_at = $2 WHERE id = $1', [factorId, at]);
}

/** Makes the user's factors exactly `factors`, keeping the ids of those that stay. */
export async function syncFactors(
  q: Queryable,
  userId: string,
  factors: Array<Omit<FactorRow, 'userId' | 'lastUsedAt'>>,
  now: Date,
): Promise<void> {
  const existing = await listFactors(q, userId);
  const key = (f: { factorType: string; phoneNumber: string }) => `${f.factorType}:${f.phoneNumber}`;
  const wanted = new Set(factors.map(key));
  for (const f of existing) {
    if (!wanted.has(key(f))) await q.query('DELETE FROM identity_factor WHERE id = $1', [f.id]);
  }
  const have = new Set(existing.map(key));
  for (const f of factors) {
    if (have.has(key(f))) continue;
    await q.query(
      `INSERT INTO identity_factor (id, user_id, factor_type, phone_number, is_mobile, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [f.id, userId, f.factorType, f.phoneNumber, f.isMobile, now],
    );
  }
}
