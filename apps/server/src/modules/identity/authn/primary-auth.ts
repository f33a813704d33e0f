import type { AuthnTransaction } from '@portal/contracts';
import type { RateDecision } from '../../../platform/counters';
import { findUserByLogin } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { hashToken } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { identityLimits } from './limits';
import { countFailure, isLocked, lockAccount } from './lockout';
import { mfaEnroll, mfaRequired, secondStepStatus } from './shapes';
import { createTransaction } from './transactions';

/** Per-username limit of /api/v1/authn (4 a second); throws 429 E0000047 above it. */
export async function takeUsernameRate(c: AuthnContext, username: string): Promise<RateDecision> {
  const decision = await (
    await c.counters()
  ).take(`authn:${hashToken(username.trim().toLowerCase())}`, identityLimits.authnPerUsernamePerSecond, 1000);
  if (!decision.allowed) throw oktaErrors.rateLimited(decision);
  return decision;
}

const HOUR = 60 * 60_000;
const failuresKey = (address: string) => `authn-fail-ip:${address}`;

/**
 * Failed sign-ins per client address, across usernames (30 an hour): above it, 429 E0000047 before any
 * password is checked, so one client can neither spray passwords nor lock more than a few accounts.
 */
export async function checkAddress(c: AuthnContext, address: string | undefined): Promise<void> {
  if (!address) return;
  const decision = await (
    await c.counters()
  ).peek(failuresKey(address), identityLimits.signInFailuresPerAddressPerHour, HOUR);
  if (!decision.allowed) throw oktaErrors.rateLimited(decision);
}

export async function countAddressFailure(c: AuthnContext, address: string | undefined): Promise<void> {
  if (!address) return;
  await (await c.counters()).take(failuresKey(address), identityLimits.signInFailuresPerAddressPerHour, HOUR);
}

/**
 * {username, password}: MFA_REQUIRED (MFA_ENROLL without a factor to use), or 401 E0000004 alike for every failure. Unknown usernames
 * create no state; a wrong password counts towards the account's lockout; every failure counts towards
 * the client address's limit.
 */
export async function primaryAuth(
  c: AuthnContext,
  username: string,
  password: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const { db } = c;
  await checkAddress(c, meta.clientAddress);
  const login = username.trim().toLowerCase();
  const user = await findUserByLogin(db, login);
  const failure = async (reason: string, customerId: string | null) => {
    await countAddressFailure(c, meta.clientAddress);
    await db.transaction((q) =>
      c.audit(q, meta, { eventId: 'identity.signin', customerId, isSuccess: false, failureReason: reason }),
    );
    c.signInOutcome(
      reason === 'UNKNOWN_USER' ? 'unknown_user' : reason === 'LOCKED_OUT' ? 'locked' : 'wrong_password',
    );
    return oktaErrors.authenticationFailed();
  };
  if (!user) {
    await c.verifyAgainstDummy(password);
    throw await failure('UNKNOWN_USER', null);
  }
  const passwordOk = await c.verifyPasswordHash(user, password);
  if (isLocked(c, user)) throw await failure('LOCKED_OUT', user.customerId);
  if (user.status !== 'ACTIVE') throw await failure('NOT_ACTIVE', user.customerId);
  if (!passwordOk) {
    await countAddressFailure(c, meta.clientAddress);
    const at = c.clock.now();
    await db.transaction(async (q) => {
      const { lockedNow } = await countFailure(q, user, at);
      await c.audit(q, meta, {
        eventId: 'identity.signin',
        customerId: user.customerId,
        isSuccess: false,
        failureReason: 'WRONG_PASSWORD',
      });
      if (lockedNow) await lockAccount(c, q, user, at, meta, 'PASSWORD');
    });
    c.signInOutcome('wrong_password');
    throw oktaErrors.authenticationFailed();
  }
  // A user with no factor to verify with sets one up instead (MFA_ENROLL, authn/enrol.ts).
  const { stateToken, transaction } = await db.transaction(async (q) =>
    createTransaction(c, q, user.id, 'signin', await secondStepStatus(q, user.id)),
  );
  return transaction.status === 'MFA_ENROLL'
    ? mfaEnroll(c, stateToken, transaction, user)
    : mfaRequired(c, stateToken, transaction, user);
}
