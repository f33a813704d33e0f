import type { AuthnTransaction } from '@portal/contracts';
import { consumeLinkToken, findUserById, findUserByLogin, unlockUser } from '../identity.repository';
import { unlockEmail } from '../emails';
import { hashToken } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { identityLimits } from './limits';
import { issueLinkToken } from './link-tokens';
import { isLocked } from './lockout';

const HOUR = 60 * 60_000;

/** Answer of recovery/unlock: the same for every username, locked or not, known or not. */
export function unlockChallenge(): AuthnTransaction {
  return {
    status: 'RECOVERY_CHALLENGE',
    factorResult: 'WAITING',
    factorType: 'EMAIL',
    recoveryType: 'UNLOCK',
  };
}

/**
 * Self-service unlock (Okta's recovery/unlock with factorType EMAIL): emails an unlock link (60 minutes,
 * single use, voiding older ones) when `username` is an active account that is locked now, at most 3 an
 * hour per account; nothing otherwise. The caller answers unlockChallenge() whatever happened, after the
 * same minimum time (timing.ts).
 */
export async function requestUnlock(
  c: AuthnContext,
  publicUrl: string,
  username: string,
  meta: RequestMeta,
): Promise<void> {
  const user = await findUserByLogin(c.db, username.trim().toLowerCase());
  if (!user || user.status !== 'ACTIVE' || !isLocked(c, user)) return;
  const decision = await (
    await c.counters()
  ).take(`unlock-email:${user.id}`, identityLimits.unlockEmailsPerAccountPerHour, HOUR);
  const token = await c.db.transaction(async (q) => {
    await c.audit(q, meta, {
      eventId: 'identity.unlock.requested',
      customerId: user.customerId,
      isSuccess: decision.allowed,
      failureReason: decision.allowed ? null : 'RATE_LIMITED',
    });
    return decision.allowed ? issueLinkToken(c, q, user.id, 'unlock') : null;
  });
  if (!token) return;
  try {
    await c.notifier().enqueue(unlockEmail(user.login, user, publicUrl, token), { log: meta.log });
  } catch {
    // Already logged (masked) by the notifier. The answer must not differ by whether an email went out.
  }
}

/**
 * An unlock token from the email (recovery/token): the lockout ends and the failure count starts again;
 * nobody is signed in. Null when `token` is no live unlock token of an active account; the caller then
 * answers 403 E0000105 as for any other bad recovery token.
 */
export async function redeemUnlockToken(
  c: AuthnContext,
  token: string,
  meta: RequestMeta,
): Promise<AuthnTransaction | null> {
  return c.db.transaction(async (q) => {
    const used = await consumeLinkToken(q, hashToken(token), 'unlock', c.clock.now());
    if (!used) return null;
    const user = await findUserById(q, used.userId, true);
    if (!user || user.status !== 'ACTIVE') {
      await c.audit(q, meta, {
        eventId: 'identity.unlock',
        customerId: user?.customerId ?? null,
        isSuccess: false,
        failureReason: 'INVALID_TOKEN',
      });
      return null;
    }
    await unlockUser(q, user.id);
    await c.audit(q, meta, { eventId: 'identity.unlock', customerId: user.customerId, isSuccess: true });
    return { status: 'UNAUTHENTICATED', recoveryType: 'UNLOCK' };
  });
}
