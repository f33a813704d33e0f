import type { Queryable } from '../../../platform/db';
import { lockOpenSignIns, recordFailure, type UserRow } from '../identity.repository';
import type { AuthnContext, RequestMeta } from './context';
import { identityLimits } from './limits';

/** Whether the account is locked now. */
export const isLocked = (c: AuthnContext, user: UserRow) =>
  user.lockedUntil !== null && user.lockedUntil.getTime() > c.clock.now().getTime();

/** Counts one failed step towards the lockout; `lockedNow` when it was the one that locked the account. */
export const countFailure = (q: Queryable, user: UserRow, at: Date) =>
  recordFailure(
    q,
    user.id,
    identityLimits.lockoutThreshold,
    new Date(at.getTime() + identityLimits.lockoutMs),
  );

/** Locks the account for 30 minutes and ends its open sign-ins; the caller's transaction commits it. */
export async function lockAccount(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  at: Date,
  meta: RequestMeta,
  cause: 'PASSWORD' | 'CODE',
) {
  await lockOpenSignIns(q, user.id, at);
  await c.audit(q, meta, {
    eventId: 'identity.lockout',
    customerId: user.customerId,
    isSuccess: true,
    failureReason: `${cause}_FAILURES`,
    details: {
      lockedUntil: new Date(at.getTime() + identityLimits.lockoutMs).toISOString(),
      failures: identityLimits.lockoutThreshold,
    },
  });
}

/**
 * A wrong current password outside sign-in (the profile's password check and change): counted towards
 * the lockout, audited, and the account locked when it was the last failure allowed.
 */
export async function countWrongPassword(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  at: Date,
  meta: RequestMeta,
) {
  const { lockedNow } = await countFailure(q, user, at);
  await c.audit(q, meta, {
    eventId: 'identity.password.verify',
    customerId: user.customerId,
    isSuccess: false,
    failureReason: 'WRONG_PASSWORD',
  });
  if (lockedNow) await lockAccount(c, q, user, at, meta, 'PASSWORD');
}
