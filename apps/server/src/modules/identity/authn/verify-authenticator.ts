import type { AuthnTransaction } from '@portal/contracts';
import type { Queryable } from '../../../platform/db';
import { securityEmail } from '../emails';
import {
  findAuthenticator,
  findTransactionById,
  findUserById,
  recordTotpUse,
  resealSecret,
  useBackupCode,
  type AuthenticatorRow,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { backupCodeHashes, normaliseBackupCode } from '../mfa/backup-codes';
import { openWithKeys, sealSecret } from '../mfa/secret-box';
import { matchTotp } from '../mfa/totp';
import { oktaErrors } from '../okta-errors';
import type { AuthnContext, RequestMeta } from './context';
import { finishTransaction } from './finish';
import { countFailure, lockAccount } from './lockout';
import { userJson } from './shapes';
import { liveTransaction } from './transactions';

type Outcome =
  | { ok: true; sessionToken: string; sessionExpiresAt: Date; user: UserRow }
  | { ok: false; reason: 'wrong-state' }
  | { ok: false; reason: 'invalid'; cause: string };

/** Whether `passCode` is the factor's: a TOTP code of a step not used before, or an unused backup code. */
export async function matchAuthenticator(
  c: AuthnContext,
  q: Queryable,
  factor: AuthenticatorRow,
  passCode: string,
  at: Date,
): Promise<boolean> {
  if (factor.kind === 'totp') {
    if (!factor.secretEncrypted) return false;
    const { secret, stale } = openWithKeys(c.mfaKeys, factor.secretEncrypted, factor.id);
    const step = matchTotp(secret, passCode, at, factor.lastUsedStep);
    if (step === null) return false;
    // Sealed under a key being rotated out: the current key seals it again, in the same transaction.
    if (stale) await resealSecret(q, factor.id, sealSecret(c.mfaKeys.current, secret, factor.id));
    await recordTotpUse(q, factor.id, step, at);
    return true;
  }
  const code = normaliseBackupCode(passCode);
  return code !== null && useBackupCode(q, factor.id, backupCodeHashes(c.mfaKeys, factor.id, code), at);
}

/**
 * A wrong second-factor code outside the phone codes' own attempts: counted towards the account's lockout
 * like any other, audited, and the account locked when it was the last failure allowed.
 */
export async function countWrongAuthenticatorCode(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  factor: AuthenticatorRow,
  purpose: string,
  at: Date,
  meta: RequestMeta,
) {
  const { lockedNow } = await countFailure(q, user, at);
  await c.audit(q, meta, {
    eventId: 'identity.mfa.failed',
    customerId: user.customerId,
    isSuccess: false,
    failureReason: 'WRONG_CODE',
    details: { purpose, factorType: factor.kind },
  });
  if (lockedNow) await lockAccount(c, q, user, at, meta, 'CODE');
}

/**
 * Verify with an authenticator app's code or a backup code, straight from MFA_REQUIRED (nothing is sent):
 * in one database transaction holding the authn transaction, the user and the factor, so two instances
 * checking the same code at once accept it once. A wrong code counts towards the lockout and is refused
 * with 403 E0000068; the right one finishes the transaction (SUCCESS with a sessionToken). A used backup
 * code queues an email to the customer with the sign-in.
 */
export async function verifyAuthenticator(
  c: AuthnContext,
  live: TransactionRow,
  stateToken: string,
  factorId: string,
  passCode: string | undefined,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  if (passCode === undefined || passCode === '') throw oktaErrors.invalidPasscode('Enter the code.');
  const at = c.clock.now();
  const outcome = await c.db.transaction(async (q): Promise<Outcome> => {
    const t = await findTransactionById(q, live.id, true);
    if (!t || (t.status !== 'MFA_REQUIRED' && t.status !== 'MFA_CHALLENGE')) {
      return { ok: false, reason: 'wrong-state' };
    }
    const user = await findUserById(q, t.userId, true);
    const factor = user && (await findAuthenticator(q, user.id, factorId, true));
    if (!user || !factor || factor.status !== 'ACTIVE') return { ok: false, reason: 'wrong-state' };
    if (!(await matchAuthenticator(c, q, factor, passCode, at))) {
      await countWrongAuthenticatorCode(c, q, user, factor, t.kind, at, meta);
      return {
        ok: false,
        reason: 'invalid',
        cause:
          factor.kind === 'totp'
            ? 'That code is not right. Check the code your app shows now and try again.'
            : 'That backup code is not right or has been used. Check it and try again.',
      };
    }
    const method = factor.kind === 'totp' ? 'totp' : 'backup_code';
    const finished = await finishTransaction(c, q, t, user, factor.id, meta, at, method);
    if (factor.kind === 'backup_codes') {
      await c.notifier().enqueue(securityEmail(user.login, user, c.publicUrl, 'backup-code-used', at), {
        tx: q,
        log: meta.log,
      });
    }
    return { ok: true, ...finished, user };
  });
  if (live.kind === 'signin') c.signInOutcome(outcome.ok ? 'signed_in' : 'code_refused');
  if (!outcome.ok) {
    if (outcome.reason === 'wrong-state') {
      await liveTransaction(c, c.db, stateToken);
      throw oktaErrors.wrongState();
    }
    throw oktaErrors.invalidPasscode(outcome.cause);
  }
  const fresh = (await findUserById(c.db, outcome.user.id)) ?? outcome.user;
  return {
    status: 'SUCCESS',
    sessionToken: outcome.sessionToken,
    expiresAt: outcome.sessionExpiresAt.toISOString(),
    _embedded: { user: userJson(fresh) },
  };
}
