import type { StaffRole } from '@portal/contracts/call';
import type { Queryable } from '../../platform/db';

/* The staff module's tables (migration 190): staff sessions and sign-ins under way. */

export interface StaffSessionRow {
  idHash: string;
  subject: string;
  issuer: string;
  name: string;
  email: string;
  roles: StaffRole[];
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface Row {
  id_hash: string;
  subject: string;
  issuer: string;
  name: string;
  email: string;
  roles: string[];
  csrf_token: string;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
}

const toSession = (r: Row): StaffSessionRow => ({
  idHash: r.id_hash,
  subject: r.subject,
  issuer: r.issuer,
  name: r.name,
  email: r.email,
  roles: r.roles as StaffRole[],
  csrfToken: r.csrf_token,
  createdAt: new Date(r.created_at),
  lastSeenAt: new Date(r.last_seen_at),
  expiresAt: new Date(r.expires_at),
});

export async function insertSession(q: Queryable, s: StaffSessionRow): Promise<void> {
  await q.query(
    `INSERT INTO staff_session (id_hash, subject, issuer, name, email, roles, csrf_token, created_at,
                                last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $10)`,
    [
      s.idHash,
      s.subject,
      s.issuer,
      s.name,
      s.email,
      s.roles,
      s.csrfToken,
      s.createdAt,
      s.lastSeenAt,
      s.expiresAt,
    ],
  );
}

/**
 * The live session with this id: not ended, before its end, and seen within `idleMs` of `now`. When
 * `touch`, its last sight moves to `now` when it is at least a minute old: read first, and written only
 * then, so a burst of calls (several tabs, a search typed fast) neither writes nor waits on the row's lock.
 */
export async function touchSession(
  q: Queryable,
  idHash: string,
  now: Date,
  idleMs: number,
  touch: boolean,
): Promise<StaffSessionRow | null> {
  const live = `id_hash = $1 AND ended_at IS NULL AND expires_at > $2
    AND last_seen_at > $2::timestamptz - $3 * interval '1 millisecond'`;
  const columns =
    'id_hash, subject, issuer, name, email, roles, csrf_token, created_at, last_seen_at, expires_at';
  const read = async () => {
    const { rows } = await q.query<Row>(`SELECT ${columns} FROM staff_session WHERE ${live}`, [
      idHash,
      now,
      idleMs,
    ]);
    return rows[0] ? toSession(rows[0]) : null;
  };
  const row = await read();
  if (!row || !touch || row.lastSeenAt.getTime() > now.getTime() - 60_000) return row;
  const updated = await q.query<Row>(
    `UPDATE staff_session SET last_seen_at = $2 WHERE ${live} AND last_seen_at < $2 RETURNING ${columns}`,
    [idHash, now, idleMs],
  );
  // Another call moved it on meanwhile, or it ended: what the table says now.
  return updated.rows[0] ? toSession(updated.rows[0]) : read();
}

export async function endSession(q: Queryable, idHash: string, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE staff_session SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL',
    [idHash, now],
  );
  return rowCount > 0;
}

export interface SignInRow {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

export async function insertSignIn(q: Queryable, s: SignInRow, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO staff_sign_in (state, nonce, code_verifier, return_to, created_at) VALUES ($1, $2, $3, $4, $5)`,
    [s.state, s.nonce, s.codeVerifier, s.returnTo, now],
  );
}

/** Takes the sign-in of this state (once: it is deleted), if it began after `since`. */
export async function takeSignIn(q: Queryable, state: string, since: Date): Promise<SignInRow | null> {
  const { rows } = await q.query<{ state: string; nonce: string; code_verifier: string; return_to: string }>(
    `DELETE FROM staff_sign_in WHERE state = $1 RETURNING state, nonce, code_verifier, return_to, created_at > $2 AS fresh`,
    [state, since],
  );
  const row = rows[0] as (typeof rows)[number] & { fresh?: boolean };
  if (!row || row.fresh !== true) return null;
  return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to };
}
