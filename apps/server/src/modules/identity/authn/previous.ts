import type { AuthnTransaction } from '@portal/contracts';
import { killCodes, updateTransaction } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import type { AuthnContext } from './context';
import { mfaRequired } from './shapes';
import { liveTransaction, userOf } from './transactions';
import { backToEnrol } from './enrol';

/**
 * MFA_CHALLENGE back to MFA_REQUIRED (another factor); the code sent dies. MFA_ENROLL_ACTIVATE back to
 * MFA_ENROLL (enrol.ts).
 */
export async function previous(c: AuthnContext, stateToken: string): Promise<AuthnTransaction> {
  if ((await liveTransaction(c, c.db, stateToken)).status === 'MFA_ENROLL_ACTIVATE') {
    return backToEnrol(c, stateToken);
  }
  const t = await c.db.transaction(async (q) => {
    const fresh = await liveTransaction(c, q, stateToken, true);
    if (fresh.status !== 'MFA_CHALLENGE') throw oktaErrors.wrongState();
    await killCodes(q, fresh.id, c.clock.now());
    await updateTransaction(q, fresh.id, { status: 'MFA_REQUIRED', factorId: null });
    return { ...fresh, status: 'MFA_REQUIRED' as const, factorId: null };
  });
  return mfaRequired(c, stateToken, t, await userOf(c.db, t));
}
