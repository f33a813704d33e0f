import type { AuthnTransaction } from '@portal/contracts';
import { hashPassword } from '../../../platform/password-hash';
import { updateTransaction } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { newPasswordProblem } from '../password-policy';
import type { AuthnContext, RequestMeta } from './context';
import { mfaEnroll, mfaRequired, secondStepStatus } from './shapes';
import { liveTransaction, userOf } from './transactions';

/**
 * The new password of an activation or recovery. Checked against the rules and the current password now
 * (403 E0000014 with the rule in errorCauses, as for a change); stored with the transaction and applied only once the second factor is verified.
 */
export async function resetPassword(
  c: AuthnContext,
  stateToken: string,
  newPassword: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const { db } = c;
  const t = await liveTransaction(c, db, stateToken);
  if (t.status !== 'PASSWORD_RESET') throw oktaErrors.wrongState();
  const user = await userOf(db, t);
  // A recovery may not keep the password the customer has now (an activation has none yet).
  const problem = await newPasswordProblem(newPassword, await c.passwordRules(), user.login, () =>
    c.verifyPasswordHash(user, newPassword),
  );
  if (problem) {
    await db.transaction((q) =>
      c.audit(q, meta, {
        eventId: 'identity.password.set',
        customerId: user.customerId,
        isSuccess: false,
        failureReason: 'PASSWORD_POLICY',
        details: { rule: problem, purpose: t.kind },
      }),
    );
    throw oktaErrors.credentialsUpdateFailed(problem);
  }
  const hash = await hashPassword(newPassword);
  const updated = await db.transaction(async (q) => {
    const fresh = await liveTransaction(c, q, stateToken, true);
    if (fresh.status !== 'PASSWORD_RESET') throw oktaErrors.wrongState();
    const status = await secondStepStatus(q, fresh.userId);
    await updateTransaction(q, fresh.id, { pendingPasswordHash: hash, status });
    return { ...fresh, status };
  });
  return updated.status === 'MFA_ENROLL'
    ? mfaEnroll(c, stateToken, updated, user)
    : mfaRequired(c, stateToken, updated, user);
}
