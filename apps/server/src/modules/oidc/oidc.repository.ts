import type { Queryable } from '../../platform/db';

/** One stored provider model (session, code, grant, refresh token, ...). */
export interface PayloadRow {
  payload: Record<string, unknown>;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

interface RawRow {
  payload: Record<string, unknown> | string;
  expires_at: Date | null;
  consumed_at: Date | null;
}

const toRow = (r: RawRow): PayloadRow => ({
  payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as Record<string, unknown>) : r.payload,
  expiresAt: r.expires_at,
  consumedAt: r.consumed_at,
});

export async function upsertPayload(
  q: Queryable,
  row: {
    model: string;
    id: string;
    payload: Record<string, unknown>;
    grantId: string | null;
    userCode: string | null;
    uid: string | null;
    expiresAt: Date | null;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO oidc_payload (model, id, payload, grant_id, user_code, uid, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
       user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
    [row.model, row.id, JSON.stringify(row.payload), row.grantId, row.userCode, row.uid, row.expiresAt],
  );
}

/** A live (not expired at `now`) row by one of its keys. */
export async function findPayload(
  q: Queryable,
  model: string,
  by: 'id' | 'uid' | 'user_code',
  value: string,
  now: Date,
): Promise<PayloadRow | undefined> {
  const { rows } = await q.query<RawRow>(
    `SELECT payload, expires_at, consumed_at FROM oidc_payload
     WHERE model = $1 AND ${by} = $2 AND (expires_at IS NULL OR expires_at > $3)
     LIMIT 1`,
    [model, value, now],
  );
  return rows[0] ? toRow(rows[0]) : undefined;
}

/**
 * Marks a row consumed if nobody has yet. True for the one caller that did; false for every other,
 * however many race (the conditional UPDATE is atomic in PostgreSQL).
 */
export async function consumePayload(q: Queryable, model: string, id: string, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE oidc_payload SET consumed_at = $3
     WHERE model = $1 AND id = $2 AND consumed_at IS NULL AND (expires_at IS NULL OR expires_at > $3)`,
    [model, id, now],
  );
  return rowCount === 1;
}

export async function destroyPayload(q: Queryable, model: string, id: string): Promise<void> {
  await q.query('DELETE FROM oidc_payload WHERE model = $1 AND id = $2', [model, id]);
}

export async function destroyByGrant(q: Queryable, model: string, grantId: string): Promise<void> {
  await q.query('DELETE FROM oidc_payload WHERE model = $1 AND grant_id = $2', [model, grantId]);
}

/** Every token of a grant, whatever its model (sign-out revokes a whole grant at once). */
export async function destroyGrantEverywhere(q: Queryable, grantId: string): Promise<void> {
  await q.query('DELETE FROM oidc_payload WHERE grant_id = $1 OR (model = $2 AND id = $1)', [
    grantId,
    'Grant',
  ]);
}

/** Removes rows that expired more than a day before `now` (kept a while for reuse detection). */
export async function purgeExpired(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query(
    "DELETE FROM oidc_payload WHERE expires_at < $1::timestamptz - interval '1 day'",
    [now],
  );
  return rowCount;
}

/** Stored key material by name, or undefined. */
export async function findKeyMaterial<T>(q: Queryable, name: string): Promise<T | undefined> {
  const { rows } = await q.query<{ value: T | string }>(
    'SELECT value FROM oidc_key_material WHERE name = $1',
    [name],
  );
  const value = rows[0]?.value;
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** Stores key material unless another instance already has; returns what is stored (theirs or ours). */
export async function storeKeyMaterialOnce<T>(q: Queryable, name: string, value: T): Promise<T> {
  await q.query('INSERT INTO oidc_key_material (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify(value),
  ]);
  const stored = await findKeyMaterial<T>(q, name);
  if (stored === undefined) throw new Error(`key material ${name} was not stored`);
  return stored;
}

/**
 * Replaces stored key material only if it is still `expected` (compare-and-set), so of several instances
 * rotating at once exactly one writes; returns what is stored afterwards (theirs or ours).
 */
export async function replaceKeyMaterial<T>(q: Queryable, name: string, expected: T, value: T): Promise<T> {
  await q.query('UPDATE oidc_key_material SET value = $3::jsonb WHERE name = $1 AND value = $2::jsonb', [
    name,
    JSON.stringify(expected),
    JSON.stringify(value),
  ]);
  const stored = await findKeyMaterial<T>(q, name);
  if (stored === undefined) throw new Error(`key material ${name} is missing`);
  return stored;
}
