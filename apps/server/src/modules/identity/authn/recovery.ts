import type { AuthnTransaction } from '@portal/contracts';
import { consumeLinkToken, findUserById } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { hashToken } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { passwordReset } from './shapes';
import { createTransaction } from './transactions';
import { redeemUnlockToken } from './unlock';

/** Answer of recovery/password: the same for every username. */
export function recoveryChallenge(): AuthnTransaction {
  return {
    status: 'RECOVERY_CHALLENGE',
    factorResult: 'WAITING',
    factorType: 'EMAIL',
    recoveryType: 'PASSWORD',
  };
}

/**
 * {recoveryToken} from the reset email: PASSWORD_RESET (PASSWORD); from the unlock email: the account is
 * unlocked, UNAUTHENTICATED (recoveryType UNLOCK); otherwise 403 E0000105.
 */
export async function recoveryToken(
  c: AuthnContext,
  token: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const unlocked = await redeemUnlockToken(c, token, meta);
  if (unlocked) return unlocked;
  const started = await c.db.transaction(async (q) => {
    const used = await consumeLinkToken(q, hashToken(token), 'recovery', c.clock.now());
    const user = used ? await findUserById(q, used.userId, true) : null;
    if (!user || user.status !== 'ACTIVE') {
      await c.audit(q, meta, {
        eventId: 'identity.password.reset',
        customerId: user?.customerId ?? null,
        isSuccess: false,
        failureReason: 'INVALID_TOKEN',
      });
      return null;
    }
    const created = await createTransaction(c, q, user.id, 'recovery', 'PASSWORD_RESET');
    return { ...created, user };
  });
  if (!started) throw oktaErrors.invalidRecoveryToken();
  return passwordReset(c, started.stateToken, started.transaction, started.user);
}
