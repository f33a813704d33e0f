import type { Queryable } from '../../../platform/db';
import { dateOrNull, toUser } from './mappers';
import type { UserRow, UserStatus } from './rows';

/* The users table: accounts, their status, password and failed attempts. */

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

/** When the customer's password was last set: the one column the profile shows (null: none, or no account). */
export async function findPasswordChangedAt(q: Queryable, customerId: string): Promise<Date | null> {
  const { rows } = await q.query<{ password_changed_at: unknown }>(
    'SELECT password_changed_at FROM identity_user WHERE customer_id = $1',
    [customerId],
  );
  return rows[0] ? dateOrNull(rows[0].password_changed_at) : null;
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
