import { HttpError, notFound } from '../../../platform/errors';
import { hashPassword } from '../../../platform/password-hash';
import type { Queryable } from '../../../platform/db';
import {
  findAuthenticator,
  findOpenStepUp,
  findUserByCustomerId,
  findUserById,
  listAuthenticators,
  listFactors,
  recordSuccess,
  setPassword,
  updateTransaction,
  useCode,
} from '../identity.repository';
import { OktaHttpError } from '../okta-errors';
import { newPasswordProblem } from '../password-policy';
import { maskPhone } from '../phone';
import type { RequestMeta } from '../authn/context';
import type { UserRow } from '../identity.repository';
import type { StepUpPasswordChange, IdentityService } from './types';
import type { IdentityServiceContext } from './context';

/* A profile change guarded by a one-time code: the factors, the code, and the password change it allows. */

export async function getFactors(
  c: IdentityServiceContext,
  ...[customerId]: Parameters<IdentityService['getFactors']>
): ReturnType<IdentityService['getFactors']> {
  const { db } = c;
  const user = await findUserByCustomerId(db, customerId);
  if (!user) return [];
  return (await listFactors(db, user.id)).map((f) => ({
    id: f.id,
    factorType: f.factorType,
    phoneNumber: maskPhone(f.phoneNumber),
    isMobile: f.isMobile,
    codeLength: f.isMobile ? 6 : 5,
  }));
}

export async function sendStepUpCode(
  c: IdentityServiceContext,
  ...[customerId, method, meta = {}]: Parameters<IdentityService['sendStepUpCode']>
): ReturnType<IdentityService['sendStepUpCode']> {
  const { db, now, pickFactor, authn } = c;
  const user = await findUserByCustomerId(db, customerId);
  if (!user || user.status !== 'ACTIVE') throw notFound('No such factor for this customer');
  const factor = pickFactor(await listFactors(db, user.id), method);
  if (!factor) throw notFound('No such factor for this customer');
  if (authn.isLocked(user)) {
    const seconds = Math.ceil((user.lockedUntil!.getTime() - now().getTime()) / 1000);
    throw new HttpError(
      429,
      'ACCOUNT_LOCKED',
      'Too many failed attempts. Please wait and try again.',
      undefined,
      {
        'Retry-After': String(Math.max(1, seconds)),
      },
    );
  }
  const t = await db.transaction(
    async (q) =>
      (await findOpenStepUp(q, user.id, now())) ??
      (await authn.createTransaction(q, user.id, 'stepup', 'MFA_REQUIRED')).transaction,
  );
  let sent;
  try {
    sent = await authn.issueCode(t, user, factor, meta);
  } catch (error) {
    if (error instanceof OktaHttpError) {
      throw new HttpError(error.statusCode, 'CODE_NOT_SENT', error.errorSummary, undefined, error.headers);
    }
    throw error;
  }
  if (!sent.ok) {
    throw new HttpError(
      429,
      'TOO_MANY_REQUESTS',
      'Too many codes asked for. Please wait and try again.',
      undefined,
      {
        'Retry-After': String(sent.retryAfterSeconds),
      },
    );
  }
  return {
    expiresAt: sent.expiresAt,
    codeLength: sent.codeLength,
    phoneNumber: maskPhone(factor.phoneNumber),
    factorType: factor.factorType,
  };
}

/**
 * What a password change checks before its transaction: the current password, the new one's rules, and
 * the new hash. Hashing happens outside the transaction because PGlite queues every other query behind an
 * open one, and a hash takes tens of milliseconds.
 */
async function checkBeforehand(
  { authn }: IdentityServiceContext,
  user: UserRow,
  change: { currentPassword: string; newPassword: string },
): Promise<{ currentOk: boolean; problem: string | null; hash: string | null }> {
  const rules = await authn.passwordRules();
  const currentOk = await authn.verifyPasswordHash(user, change.currentPassword);
  const problem = await newPasswordProblem(
    change.newPassword,
    rules,
    user.login,
    () => change.newPassword === change.currentPassword,
  );
  return { currentOk, problem, hash: problem ? null : await hashPassword(change.newPassword) };
}

/**
 * Inside the change's transaction, the checks of the two passwords both kinds of code share: the current
 * one again if the password changed since it was checked before the transaction (a reset meanwhile;
 * a wrong one counts towards the lockout), then the new one's rule (audited). A refusal, or null.
 */
async function checkPasswords(
  c: IdentityServiceContext,
  q: Queryable,
  checked: {
    user: UserRow;
    fresh: UserRow;
    currentOk: boolean;
    problem: string | null;
    hash: string | null;
  },
  change: { currentPassword: string },
  at: Date,
  meta: RequestMeta,
): Promise<StepUpPasswordChange | null> {
  const { authn } = c;
  const { user, fresh, currentOk, problem, hash } = checked;
  const stillCurrent =
    fresh.passwordHash === user.passwordHash
      ? currentOk
      : await authn.verifyPasswordHash(fresh, change.currentPassword);
  if (!stillCurrent) {
    await authn.countWrongPassword(q, fresh, at, meta);
    return { ok: false, refused: 'current-password', reason: 'Your current password is not right.' };
  }
  if (problem || !hash) {
    await authn.audit(q, meta, {
      eventId: 'identity.password.set',
      customerId: user.customerId,
      isSuccess: false,
      failureReason: 'PASSWORD_POLICY',
      details: { rule: problem, purpose: 'change' },
    });
    return { ok: false, refused: 'new-password', reason: problem ?? 'Choose a different password.' };
  }
  return null;
}

export async function changePasswordWithStepUp(
  c: IdentityServiceContext,
  ...[customerId, change, alongside, meta = {}]: Parameters<IdentityService['changePasswordWithStepUp']>
): ReturnType<IdentityService['changePasswordWithStepUp']> {
  const { db, now, authn } = c;
  const refused = (
    kind: 'code' | 'current-password' | 'new-password',
    reason: string,
  ): StepUpPasswordChange => ({ ok: false, refused: kind, reason });
  const noCode = () => refused('code', 'That code is not right, or it has expired. Ask for a new code.');
  const user = await findUserByCustomerId(db, customerId);
  if (change.codeFrom === 'app') return changePasswordWithApp(c, user, change, alongside, meta);
  if (!user || user.status !== 'ACTIVE') return noCode();
  const { currentOk, problem, hash } = await checkBeforehand(c, user, change);
  const at = now();
  return db.transaction(async (q): Promise<StepUpPasswordChange> => {
    // Holding the step-up's row: a second change with the same code waits here, then finds it finished.
    const t = await findOpenStepUp(q, user.id, at);
    const fresh = await findUserById(q, user.id, true);
    if (!t || t.status !== 'MFA_CHALLENGE' || !t.factorId) return noCode();
    if (!fresh || fresh.status !== 'ACTIVE' || authn.isLocked(fresh)) return noCode();
    const matched = await authn.matchCode(q, t, fresh, t.factorId, change.passCode, meta, at);
    if (!matched.ok) return refused('code', matched.cause);

    // The password changed since it was checked above (a reset meanwhile): check it again.
    const passwords = await checkPasswords(c, q, { user, fresh, currentOk, problem, hash }, change, at, meta);
    if (passwords) return passwords;

    // The conditional UPDATE decides between changes that got this far with one code.
    if (!(await useCode(q, matched.code.id, at))) return noCode();
    await updateTransaction(q, t.id, { status: 'SUCCESS', completedAt: at });
    await recordSuccess(q, user.id, at);
    await authn.audit(q, meta, {
      eventId: 'identity.stepup.verified',
      customerId,
      isSuccess: true,
      details: {
        mfaSendMethod: (await listFactors(q, user.id)).find((f) => f.id === t.factorId)?.factorType,
      },
    });
    await setPassword(q, user.id, hash!, at, false);
    await authn.audit(q, meta, {
      eventId: 'identity.password.set',
      customerId,
      isSuccess: true,
      details: { purpose: 'change' },
    });
    await alongside(q);
    return { ok: true, changedAt: at };
  });
}

/**
 * The password change with the authenticator app's code instead of a sent one. In one database
 * transaction holding the user's and the app's rows: the current and new passwords first (a refusal
 * leaves the code unused, as a sent code is left for another try), then the code as at sign-in (a step
 * not used before, one step of drift either way; a wrong one counts towards the lockout), then the
 * change, the audit rows and what `alongside` writes. Two changes with one code at once: one changes.
 */
async function changePasswordWithApp(
  c: IdentityServiceContext,
  user: UserRow | null,
  change: { passCode: string; currentPassword: string; newPassword: string },
  alongside: (tx: Queryable) => Promise<void>,
  meta: Parameters<IdentityService['changePasswordWithStepUp']>[3] = {},
): Promise<StepUpPasswordChange> {
  const { db, now, authn } = c;
  const refused = (
    kind: 'code' | 'current-password' | 'new-password',
    reason: string,
  ): StepUpPasswordChange => ({ ok: false, refused: kind, reason });
  const wrongCode = () =>
    refused('code', 'That code is not right. Enter the code your authenticator app shows now.');
  if (!user || user.status !== 'ACTIVE') return wrongCode();
  const customerId = user.customerId;
  const { currentOk, problem, hash } = await checkBeforehand(c, user, change);
  const at = now();
  return db.transaction(async (q): Promise<StepUpPasswordChange> => {
    const fresh = await findUserById(q, user.id, true);
    if (!fresh || fresh.status !== 'ACTIVE' || authn.isLocked(fresh)) return wrongCode();
    const listed = (await listAuthenticators(q, user.id)).find(
      (f) => f.kind === 'totp' && f.status === 'ACTIVE',
    );
    const app = listed && (await findAuthenticator(q, user.id, listed.id, true));
    if (!app || app.status !== 'ACTIVE') {
      return refused('code', 'There is no authenticator app on your account. Ask for a code instead.');
    }
    const passwords = await checkPasswords(c, q, { user, fresh, currentOk, problem, hash }, change, at, meta);
    if (passwords) return passwords;
    // The same check as at sign-in: records the step, so the code is not accepted again.
    if (!(await authn.matchAuthenticator(q, app, change.passCode, at))) {
      await authn.countWrongAuthenticatorCode(q, fresh, app, 'change', at, meta);
      return wrongCode();
    }
    await recordSuccess(q, user.id, at);
    await authn.audit(q, meta, {
      eventId: 'identity.stepup.verified',
      customerId,
      isSuccess: true,
      details: { mfaSendMethod: 'totp' },
    });
    await setPassword(q, user.id, hash!, at, false);
    await authn.audit(q, meta, {
      eventId: 'identity.password.set',
      customerId,
      isSuccess: true,
      details: { purpose: 'change' },
    });
    await alongside(q);
    return { ok: true, changedAt: at };
  });
}
