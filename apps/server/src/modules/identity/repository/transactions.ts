import type { Queryable } from '../../../platform/db';
import { toTransaction } from './mappers';
import type { TransactionRow, TransactionKind, TransactionStatus } from './rows';

/* Authentication transactions (sign-in, activation, recovery, step-up) and their state. */

export async function insertTransaction(
  q: Queryable,
  tx: {
    id: string;
    stateTokenHash: string;
    userId: string;
    kind: TransactionKind;
    status: TransactionStatus;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO identity_transaction (id, state_token_hash, user_id, kind, status, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [tx.id, tx.stateTokenHash, tx.userId, tx.kind, tx.status, tx.createdAt, tx.expiresAt],
  );
}

export async function findTransactionByStateToken(
  q: Queryable,
  stateTokenHash: string,
  forUpdate = false,
): Promise<TransactionRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_transaction WHERE state_token_hash = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [stateTokenHash],
  );
  return rows[0] ? toTransaction(rows[0]) : null;
}

export async function findTransactionById(
  q: Queryable,
  id: string,
  forUpdate = false,
): Promise<TransactionRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_transaction WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toTransaction(rows[0]) : null;
}

/** The user's open step-up transaction (profile changes), newest first. */
export async function findOpenStepUp(
  q: Queryable,
  userId: string,
  now: Date,
): Promise<TransactionRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_transaction
     WHERE user_id = $1 AND kind = 'stepup' AND status IN ('MFA_REQUIRED', 'MFA_CHALLENGE') AND expires_at > $2
     ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [userId, now],
  );
  return rows[0] ? toTransaction(rows[0]) : null;
}

export async function updateTransaction(
  q: Queryable,
  id: string,
  fields: {
    status?: TransactionStatus;
    factorId?: string | null;
    enrolFactorId?: string | null;
    pendingPasswordHash?: string | null;
    sendCount?: number;
    completedAt?: Date;
  },
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  const add = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (fields.status !== undefined) add('status', fields.status);
  if (fields.factorId !== undefined) add('factor_id', fields.factorId);
  if (fields.enrolFactorId !== undefined) add('enrol_factor_id', fields.enrolFactorId);
  if (fields.pendingPasswordHash !== undefined) add('pending_password_hash', fields.pendingPasswordHash);
  if (fields.sendCount !== undefined) add('send_count', fields.sendCount);
  if (fields.completedAt !== undefined) add('completed_at', fields.completedAt);
  if (sets.length === 0) return;
  await q.query(`UPDATE identity_transaction SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** Ends the user's other open sign-in transactions when the account locks. */
export async function lockOpenSignIns(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE identity_transaction SET status = 'LOCKED_OUT', completed_at = $2
     WHERE user_id = $1 AND kind IN ('signin', 'stepup')
       AND status IN ('MFA_REQUIRED', 'MFA_CHALLENGE', 'MFA_ENROLL', 'MFA_ENROLL_ACTIVATE')`,
    [userId, now],
  );
  await q.query(
    `UPDATE identity_code SET dead_at = $2 WHERE dead_at IS NULL AND used_at IS NULL AND transaction_id IN
       (SELECT id FROM identity_transaction WHERE user_id = $1 AND status = 'LOCKED_OUT')`,
    [userId, now],
  );
}
