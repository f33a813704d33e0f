import type { Queryable } from '../../../platform/db';
import { notFound } from '../../../platform/errors';
import { hashPassword } from '../../../platform/password-hash';
import { findUserByCustomerId, setPassword } from '../identity.repository';
import { newPasswordProblem } from '../password-policy';
import { PasswordPolicyError } from './types';
import type { IdentityService } from './types';
import type { IdentityServiceContext } from './context';

/* The profile's password checks and change (the same rules as registration and reset). */

export async function verifyPassword(
  c: IdentityServiceContext,
  ...[customerId, password, meta = {}]: Parameters<IdentityService['verifyPassword']>
): ReturnType<IdentityService['verifyPassword']> {
  const { db, now, authn } = c;
  const user = await findUserByCustomerId(db, customerId);
  if (!user || user.status !== 'ACTIVE') return false;
  const ok = await authn.verifyPasswordHash(user, password);
  if (authn.isLocked(user)) return false;
  if (ok) return true;
  const at = now();
  await db.transaction((q) => authn.countWrongPassword(q, user, at, meta));
  return false;
}

export async function changePassword(
  c: IdentityServiceContext,
  ...[customerId, newPassword, tx, meta = {}]: Parameters<IdentityService['changePassword']>
): ReturnType<IdentityService['changePassword']> {
  const { db, now, authn } = c;
  const user = await findUserByCustomerId(tx ?? db, customerId);
  if (!user || user.status !== 'ACTIVE') throw notFound('No account for this customer');
  const problem = await newPasswordProblem(newPassword, await authn.passwordRules(), user.login, () =>
    authn.verifyPasswordHash(user, newPassword),
  );
  const hash = problem ? null : await hashPassword(newPassword);
  const write = async (q: Queryable) => {
    if (problem || !hash) {
      await authn.audit(q, meta, {
        eventId: 'identity.password.set',
        customerId,
        isSuccess: false,
        failureReason: 'PASSWORD_POLICY',
        details: { rule: problem, purpose: 'change' },
      });
      return;
    }
    await setPassword(q, user.id, hash, now(), false);
    await authn.audit(q, meta, {
      eventId: 'identity.password.set',
      customerId,
      isSuccess: true,
      details: { purpose: 'change' },
    });
  };
  if (tx) await write(tx);
  else await db.transaction(write);
  if (problem) throw new PasswordPolicyError(problem);
}
