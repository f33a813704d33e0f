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
