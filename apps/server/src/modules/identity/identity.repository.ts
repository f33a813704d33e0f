import type { Queryable } from '../../platform/db';

export type UserStatus = 'PROVISIONED' | 'ACTIVE' | 'SUSPENDED' | 'DEPROVISIONED';
/** Emailed link tokens: activation (24 hours), recovery (password reset) and unlock (60 minutes each). */
export type LinkTokenKind = 'activation' | 'recovery' | 'unlock';
export type TransactionKind = 'signin' | 'activation' | 'recovery' | 'stepup';
export type TransactionStatus =
  'PASSWORD_RESET' | 'MFA_REQUIRED' | 'MFA_CHALLENGE' | 'SUCCESS' | 'CANCELLED' | 'LOCKED_OUT';

export interface UserRow {
  id: string;
  customerId: string;
  login: string;
  status: UserStatus;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  passwordChangedAt: Date | null;
  failedAttempts: number;
  lockedUntil: Date | null;
}

export interface FactorRow {
  id: string;
  userId: string;
  factorType: 'sms' | 'call';
  phoneNumber: string;
  isMobile: boolean;
}

export interface TransactionRow {
  id: string;
  userId: string;
  kind: TransactionKind;
  status: TransactionStatus;
  factorId: string | null;
  pendingPasswordHash: string | null;
  sendCount: number;
  createdAt: Date;
  expiresAt: Date;
}

export interface CodeRow {
  id: number;
  transactionId: string;
  factorId: string;
  codeHash: string;
  salt: string;
  codeLength: 5 | 6;
  maxAttempts: number;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  deadAt: Date | null;
}

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));

/* eslint-disable @typescript-eslint/no-explicit-any -- row objects come from the driver untyped; each mapper names every column */
const toUser = (r: any): UserRow => ({
  id: r.id,
  customerId: r.customer_id,
  login: r.login,
  status: r.status,
  firstName: r.first_name,
  lastName: r.last_name,
  passwordHash: r.password_hash,
  passwordChangedAt: dateOrNull(r.password_changed_at),
  failedAttempts: Number(r.failed_attempts),
  lockedUntil: dateOrNull(r.locked_until),
});
const toFactor = (r: any): FactorRow => ({
  id: r.id,
  userId: r.user_id,
  factorType: r.factor_type,
  phoneNumber: r.phone_number,
  isMobile: r.is_mobile,
});
const toTransaction = (r: any): TransactionRow => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  status: r.status,
  factorId: r.factor_id,
  pendingPasswordHash: r.pending_password_hash,
  sendCount: Number(r.send_count),
  createdAt: date(r.created_at),
  expiresAt: date(r.expires_at),
});
const toCode = (r: any): CodeRow => ({
  id: Number(r.id),
  transactionId: r.transaction_id,
  factorId: r.factor_id,
  codeHash: r.code_hash,
  salt: r.salt,
  codeLength: Number(r.code_length) as 5 | 6,
  maxAttempts: Number(r.max_attempts),
  attempts: Number(r.attempts),
  createdAt: date(r.created_at),
  expiresAt: date(r.expires_at),
  usedAt: dateOrNull(r.used_at),
  deadAt: dateOrNull(r.dead_at),
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/* Users ------------------------------------------------------------------------------------------- */

export async function findUserById(q: Queryable, id: string, forUpdate = false): Promise<UserRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_user WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserByLogin(q: Queryable, login: string): Promise<UserRow | null> {
  const { rows } = await q.query('SELECT * FROM identity_user WHERE login = $1', [login.toLowerCase()]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserByCustomerId(
  q: Queryable,
  customerId: string,
  forUpdate = false,
): Promise<UserRow | null> {
  const { rows } = await q.query(
    `SELECT * FROM identity_user WHERE customer_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [customerId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function insertUser(
  q: Queryable,
  user: {
    id: string;
    customerId: string;
    login: string;
    status: UserStatus;
    firstName: string;
    lastName: string;
    passwordHash?: string | null;
    now: Date;
  },
): Promise<void> {
  const active = user.status === 'ACTIVE';
  await q.query(
    `INSERT INTO identity_user (id, customer_id, login, status, first_name, last_name, password_hash,
       password_changed_at, created_at, activated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      user.id,
      user.customerId,
      user.login.toLowerCase(),
      user.status,
      user.firstName,
      user.lastName,
      user.passwordHash ?? null,
      user.passwordHash ? user.now : null,
      user.now,
      active ? user.now : null,
    ],
  );
}

export async function updateProvisionedUser(
  q: Queryable,
  id: string,
  fields: { login: string; firstName: string; lastName: string },
): Promise<void> {
  await q.query(
    `UPDATE identity_user SET login = $2, first_name = $3, last_name = $4 WHERE id = $1 AND status = 'PROVISIONED'`,
    [id, fields.login.toLowerCase(), fields.firstName, fields.lastName],
  );
}

/**
 * Counts one failed step. At `threshold` consecutive failures the account locks until `lockUntil` and the
 * count starts again from zero (so the lock, once over, gives a fresh set of attempts).
 */
export async function recordFailure(
  q: Queryable,
  userId: string,
  threshold: number,
  lockUntil: Date,
): Promise<{ lockedNow: boolean }> {
  const { rows } = await q.query<{ locked_now: boolean }>(
    `UPDATE identity_user SET
       failed_attempts = CASE WHEN failed_attempts + 1 >= $2 THEN 0 ELSE failed_attempts + 1 END,
       locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN $3 ELSE locked_until END
     WHERE id = $1
     RETURNING (failed_attempts = 0 AND locked_until = $3) AS locked_now`,
    [userId, threshold, lockUntil],
  );
  return { lockedNow: rows[0]?.locked_now === true };
}

/** Holds the identity seed's lock until the caller's transaction ends: seeding instances take turns. */
export async function holdSeedLock(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(727275)');
}

/** Self-service unlock: the lockout ends and the failure count starts again. */
export async function unlockUser(q: Queryable, userId: string): Promise<void> {
  await q.query('UPDATE identity_user SET failed_attempts = 0, locked_until = NULL WHERE id = $1', [userId]);
}

/** A completed sign-in: the failure count starts again. */
export async function recordSuccess(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query('UPDATE identity_user SET failed_attempts = 0, last_login_at = $2 WHERE id = $1', [
    userId,
    now,
  ]);
}

/** Sets a new password; a reset also lifts a lockout. */
export async function setPassword(
  q: Queryable,
  userId: string,
  passwordHash: string,
  now: Date,
  liftLock: boolean,
): Promise<void> {
  await q.query(
    `UPDATE identity_user SET password_hash = $2, password_changed_at = $3
       ${liftLock ? ', failed_attempts = 0, locked_until = NULL' : ''}
     WHERE id = $1`,
    [userId, passwordHash, now],
  );
}

export async function activateUser(q: Queryable, userId: string, now: Date): Promise<void> {
  await q.query(`UPDATE identity_user SET status = 'ACTIVE', activated_at = $2 WHERE id = $1`, [userId, now]);
}

/* Factors ----------------------------------------------------------------------------------------- */

export async function listFactors(q: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await q.query(
    // sms first, then calls to a mobile, then to a landline: the order the SPA offers them.
    `SELECT * FROM identity_factor WHERE user_id = $1
     ORDER BY CASE factor_type WHEN 'sms' THEN 0 ELSE 1 END, is_mobile DESC, created_at, id`,
    [userId],
  );
  return rows.map(toFactor);
}

/** Makes the user's factors exactly `factors`, keeping the ids of those that stay. */
export async function syncFactors(
  q: Queryable,
  userId: string,
  factors: Array<{ id: string; factorType: 'sms' | 'call'; phoneNumber: string; isMobile: boolean }>,
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

/* Transactions ------------------------------------------------------------------------------------ */

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
     WHERE user_id = $1 AND kind IN ('signin', 'stepup') AND status IN ('MFA_REQUIRED', 'MFA_CHALLENGE')`,
    [userId, now],
  );
  await q.query(
    `UPDATE identity_code SET dead_at = $2 WHERE dead_at IS NULL AND used_at IS NULL AND transaction_id IN
       (SELECT id FROM identity_transaction WHERE user_id = $1 AND status = 'LOCKED_OUT')`,
    [userId, now],
  );
}

/* Codes ------------------------------------------------------------------------------------------- */

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

/* Session tokens ---------------------------------------------------------------------------------- */

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

/* Activation and recovery tokens ------------------------------------------------------------------ */

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
