import type { Queryable } from '../../../platform/db';
import {
  findTransactionById,
  findUserById,
  latestCode,
  markCodeDead,
  recordCodeAttempt,
  useCode,
  type CodeRow,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { hashCode, sameDigest } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { finishTransaction } from './finish';
import { countFailure, lockAccount } from './lockout';

type Refusal = { ok: false; reason: 'invalid'; cause: string };

/** The outcome of checking a code. */
type CheckOutcome =
  { ok: true; sessionToken: string; sessionExpiresAt: Date } | { ok: false; reason: 'wrong-state' } | Refusal;

/** An audited refusal of a code. */
async function refuseCode(
  c: AuthnContext,
  q: Queryable,
  t: TransactionRow,
  user: UserRow,
  meta: RequestMeta,
  reason: string,
  cause: string,
  extra: Record<string, unknown> = {},
): Promise<Refusal> {
  await c.audit(q, meta, {
    eventId: 'identity.mfa.failed',
    customerId: user.customerId,
    isSuccess: false,
    failureReason: reason,
    details: { purpose: t.kind, ...extra },
  });
  return { ok: false, reason: 'invalid', cause };
}

/**
 * Checks a code against transaction `t`'s live code for the factor, in the caller's database transaction
 * `q` (which holds `t`'s row), and leaves it unused: the caller uses it up (useCode) with the work the
 * code guards. A wrong code uses one of the code's attempts (5 for a mobile code, 3 for a landline one)
 * and counts towards the account's lockout; an expired one dies. Every refusal is audited.
 */
export async function matchCode(
  c: AuthnContext,
  q: Queryable,
  t: TransactionRow,
  user: UserRow,
  factorId: string,
  passCode: string,
  meta: RequestMeta,
  at: Date,
): Promise<{ ok: true; code: CodeRow } | Refusal> {
  const code = await latestCode(q, t.id, factorId);
  if (!code || code.usedAt || code.deadAt) {
    return refuseCode(
      c,
      q,
      t,
      user,
      meta,
      'CODE_NOT_ACTIVE',
      'This code can no longer be used. Ask for a new code.',
    );
  }
  if (code.expiresAt.getTime() <= at.getTime()) {
    await markCodeDead(q, code.id, at);
    return refuseCode(c, q, t, user, meta, 'CODE_EXPIRED', 'This code has expired. Ask for a new code.');
  }
  const matches =
    /^\d+$/.test(passCode) &&
    passCode.length === code.codeLength &&
    sameDigest(hashCode(passCode, code.salt, t.id), code.codeHash);
  if (matches) return { ok: true, code };
  const exhausted = code.attempts + 1 >= code.maxAttempts;
  await recordCodeAttempt(q, code.id, at, exhausted);
  const { lockedNow } = await countFailure(q, user, at);
  const outcome = await refuseCode(
    c,
    q,
    t,
    user,
    meta,
    exhausted ? 'CODE_ATTEMPTS_EXCEEDED' : 'WRONG_CODE',
    exhausted
      ? 'That code is not right and can no longer be used. Ask for a new code.'
      : 'That code is not right. Check it and try again.',
    { attemptsLeft: code.maxAttempts - code.attempts - 1 },
  );
  if (lockedNow) await lockAccount(c, q, user, at, meta, 'CODE');
  return outcome;
}

/**
 * Checks a code against a sign-in, activation or recovery transaction's live code for the factor
 * (matchCode's rules) and uses it up. The right one finishes the transaction (finishTransaction).
 */
export async function checkCode(
  c: AuthnContext,
  transactionId: string,
  factorId: string,
  passCode: string,
  meta: RequestMeta,
): Promise<CheckOutcome> {
  const at = c.clock.now();
  return c.db.transaction(async (q): Promise<CheckOutcome> => {
    const t = await findTransactionById(q, transactionId, true);
    if (!t || t.kind === 'stepup') return { ok: false, reason: 'wrong-state' };
    if (t.status !== 'MFA_CHALLENGE' || t.factorId !== factorId) return { ok: false, reason: 'wrong-state' };
    const user = await findUserById(q, t.userId, true);
    if (!user) return { ok: false, reason: 'wrong-state' };
    const matched = await matchCode(c, q, t, user, factorId, passCode, meta, at);
    if (!matched.ok) return matched;
    if (!(await useCode(q, matched.code.id, at)))
      return refuseCode(c, q, t, user, meta, 'CODE_NOT_ACTIVE', 'This code can no longer be used.');
    return { ok: true, ...(await finishTransaction(c, q, t, user, factorId, meta, at)) };
  });
}
