import type { Queryable } from '../../../platform/db';
import { dateOrNull } from './mappers';

/* Passkeys: the credential columns of identity_authenticator rows of kind 'webauthn', and their challenges. */

export interface PasskeyRow {
  id: string;
  userId: string;
  name: string;
  /** base64url */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  signCount: number;
  transports: string[];
  deviceType: string | null;
  backedUp: boolean | null;
  aaguid: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- driver rows are untyped; every column is named */
const toPasskey = (r: any): PasskeyRow => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  credentialId: r.credential_id,
  publicKey: r.public_key,
  signCount: Number(r.sign_count ?? 0),
  transports: r.transports ? String(r.transports).split(',') : [],
  deviceType: r.device_type,
  backedUp: r.backed_up,
  aaguid: r.aaguid,
  createdAt: dateOrNull(r.created_at) ?? new Date(0),
  lastUsedAt: dateOrNull(r.last_used_at),
});

/** The user's passkeys, oldest first. */
export async function listPasskeys(q: Queryable, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await q.query(
    `SELECT * FROM identity_authenticator WHERE user_id = $1 AND kind = 'webauthn' ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toPasskey);
}

/** The passkey with this credential id, whoever's it is; `forUpdate` locks it. */
export async function findPasskeyByCredentialId(
  q: Queryable,
  credentialId: string,
  forUpdate = false,
): Promise<PasskeyRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_authenticator WHERE kind = 'webauthn' AND credential_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [credentialId],
  );
  return rows[0] ? toPasskey(rows[0]) : null;
}

/** Adds an ACTIVE passkey; false when its credential id is registered already (to anyone). */
export async function insertPasskey(q: Queryable, row: PasskeyRow): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO identity_authenticator
       (id, user_id, kind, status, name, created_at, activated_at, last_used_at,
        credential_id, public_key, sign_count, transports, device_type, backed_up, aaguid)
     VALUES ($1, $2, 'webauthn', 'ACTIVE', $3, $4, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (credential_id) WHERE credential_id IS NOT NULL DO NOTHING`,
    [
      row.id,
      row.userId,
      row.name,
      row.createdAt,
      row.lastUsedAt,
      row.credentialId,
      row.publicKey,
      row.signCount,
      row.transports.join(',') || null,
      row.deviceType,
      row.backedUp,
      row.aaguid,
    ],
  );
  return rowCount === 1;
}

/** Records a verified use: the new counter, whether it is backed up now, when. */
export async function recordPasskeyUse(
  q: Queryable,
  id: string,
  use: { signCount: number; backedUp: boolean; at: Date },
): Promise<void> {
  await q.query(
    `UPDATE identity_authenticator SET sign_count = $2, backed_up = $3, last_used_at = $4 WHERE id = $1`,
    [id, use.signCount, use.backedUp, use.at],
  );
}

export async function renameAuthenticator(q: Queryable, id: string, name: string): Promise<void> {
  await q.query('UPDATE identity_authenticator SET name = $2 WHERE id = $1', [id, name]);
}

export type ChallengePurpose = 'register' | 'signin' | 'second-step';

export async function insertWebauthnChallenge(
  q: Queryable,
  row: {
    challenge: string;
    purpose: ChallengePurpose;
    userId: string | null;
    transactionId: string | null;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO identity_webauthn_challenge (challenge, purpose, user_id, transaction_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.challenge, row.purpose, row.userId, row.transactionId, row.createdAt, row.expiresAt],
  );
}

/**
 * Uses up a challenge: true when it existed for this purpose and binding and had not expired. One
 * DELETE ... RETURNING, so of two instances given the same challenge at once, one gets it.
 */
export async function consumeWebauthnChallenge(
  q: Queryable,
  challenge: string,
  purpose: ChallengePurpose,
  binding: { userId?: string; transactionId?: string },
  now: Date,
): Promise<boolean> {
  const { rows } = await q.query<{
    expires_at: unknown;
    user_id: string | null;
    transaction_id: string | null;
  }>(
    `DELETE FROM identity_webauthn_challenge WHERE challenge = $1 AND purpose = $2
     RETURNING expires_at, user_id, transaction_id`,
    [challenge, purpose],
  );
  const row = rows[0];
  if (!row) return false;
  const expiresAt = dateOrNull(row.expires_at);
  return (
    expiresAt !== null &&
    expiresAt.getTime() > now.getTime() &&
    (binding.userId === undefined || row.user_id === binding.userId) &&
    (binding.transactionId === undefined || row.transaction_id === binding.transactionId)
  );
}

/** Drops every challenge of a sign-in transaction (after a refused assertion: the next try asks again). */
export async function dropTransactionChallenges(q: Queryable, transactionId: string): Promise<void> {
  await q.query('DELETE FROM identity_webauthn_challenge WHERE transaction_id = $1', [transactionId]);
}

/** What the passkey offer depends on: when the account was activated, the last "not now", any passkey. */
export async function passkeyOfferState(
  q: Queryable,
  userId: string,
): Promise<{ activatedAt: Date | null; declinedAt: Date | null; hasPasskey: boolean }> {
  const { rows } = await q.query<{ activated_at: unknown; declined_at: unknown; has_passkey: boolean }>(
    `SELECT u.activated_at, o.declined_at,
            EXISTS (SELECT 1 FROM identity_authenticator a WHERE a.user_id = u.id AND a.kind = 'webauthn') AS has_passkey
       FROM identity_user u LEFT JOIN identity_passkey_offer o ON o.user_id = u.id
      WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0];
  return {
    activatedAt: dateOrNull(row?.activated_at),
    declinedAt: dateOrNull(row?.declined_at),
    hasPasskey: row?.has_passkey === true,
  };
}

/** Records the customer's "not now" to the passkey offer. */
export async function declinePasskeyOffer(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO identity_passkey_offer (user_id, declined_at) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET declined_at = EXCLUDED.declined_at`,
    [userId, at],
  );
}
