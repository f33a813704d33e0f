import { HttpError, badRequest, notFound } from '../../../platform/errors';
import { counterStore } from '../../../platform/counters';
import {
  DeliveryError,
  maskRecipient,
  notifier,
  SEND_NOW_RETRY_AFTER_SECONDS,
} from '../../../platform/notifier';
import { identityLimits } from '../authn/limits';
import { addressInUseEmail, emailChangeCodeEmail, mobileChangeCodeText } from '../emails';
import {
  deleteUser,
  findOpenStepUp,
  findUserByCustomerId,
  findUserById,
  findUserByLogin,
  insertContactChange,
  killContactChange,
  lastContactChangeAt,
  latestContactChange,
  listFactors,
  recordContactChangeAttempt,
  setLogin,
  syncFactors,
  updateTransaction,
  useCode,
  useContactChange,
  type UserRow,
} from '../identity.repository';
import { countFailure } from '../authn/lockout';
import { isMobileNumber, maskPhone, nationalNumber } from '../phone';
import { generateCode, hashCode, newId, newSalt, sameDigest } from '../secrets';
import { factorsForNumbers } from './factors';
import type { AccountClosing, ContactChangeOutcome, IdentityService } from './types';
import type { IdentityServiceContext } from './context';

/*
 * Issue 26 (decision 026): a new sign-in email or mobile number, confirmed by a code sent to it, and
 * closing the online account with a step-up code. The code rules are those of every other code: 6 digits,
 * 5 minutes, 5 tries, one send per 30 seconds, the account's and the client address's hourly send limits
 * (shared through the counter store), and every wrong code counts towards the account's lockout.
 */

const HOUR = 60 * 60_000;

const lockedError = (c: IdentityServiceContext, user: UserRow) =>
  new HttpError(429, 'ACCOUNT_LOCKED', 'Too many failed attempts. Please wait and try again.', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil((user.lockedUntil!.getTime() - c.now().getTime()) / 1000))),
  });

const notSent = () =>
  new HttpError(
    503,
    'CODE_NOT_SENT',
    'We could not send the code. Please try again in a few minutes.',
    undefined,
    {
      'Retry-After': String(SEND_NOW_RETRY_AFTER_SECONDS),
    },
  );

export async function startContactChange(
  c: IdentityServiceContext,
  ...[customerId, change, meta = {}]: Parameters<IdentityService['startContactChange']>
): ReturnType<IdentityService['startContactChange']> {
  const { db, now, authn } = c;
  const user = await findUserByCustomerId(db, customerId);
  if (!user || user.status !== 'ACTIVE') throw notFound('No online account for this customer');

  let value: string;
  if (change.kind === 'email') {
    value = change.value.trim().toLowerCase();
    if (value === user.login) {
      throw badRequest('That is already your email address.', {
        emailAddress: 'This is already your email address. Enter a different one',
      });
    }
  } else {
    value = nationalNumber(change.value);
    if (!isMobileNumber(value)) {
      throw badRequest('Enter a UK mobile number.', {
        mobileNumber: 'Enter a UK mobile number, like 07700 900 123',
      });
    }
    const current = (await listFactors(db, user.id)).find((f) => f.factorType === 'sms');
    if (current && current.phoneNumber === value) {
      throw badRequest('That is already your mobile number.', {
        mobileNumber: 'This is already your mobile number. Enter a different one',
      });
    }
  }
  if (authn.isLocked(user)) throw lockedError(c, user);

  // The send limits of every other code: one per 30 seconds, the account's and the address's hourly ones.
  const last = await lastContactChangeAt(db, user.id, change.kind);
  const at = now();
  if (last && at.getTime() - last.getTime() < identityLimits.resendIntervalMs) {
    const wait = Math.ceil((last.getTime() + identityLimits.resendIntervalMs - at.getTime()) / 1000);
    throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Please wait before asking for another code.', undefined, {
      'Retry-After': String(Math.max(1, wait)),
    });
  }
  const counters = await counterStore(c.ctx);
  for (const [key, max] of [
    ...(meta.clientAddress
      ? ([[`mfa-send-ip:${meta.clientAddress}`, identityLimits.codeSendsPerAddressPerHour]] as const)
      : []),
    [`mfa-send:${user.id}`, identityLimits.sendsPerAccountPerHour] as const,
  ]) {
    const decision = await counters.take(key, max, HOUR);
    if (!decision.allowed) {
      throw new HttpError(
        429,
        'TOO_MANY_REQUESTS',
        'Too many codes asked for. Please wait and try again.',
        undefined,
        {
          'Retry-After': String(decision.retryAfterSeconds),
        },
      );
    }
  }

  // An address another account signs in with, or another customer's record holds: no code, a notice.
  const inUse =
    change.kind === 'email' &&
    ((await findUserByLogin(db, value)) !== null || change.takenByAnotherCustomer === true);
  const id = newId('ccr');
  const code = generateCode(6);
  const salt = newSalt();
  const expiresAt = new Date(at.getTime() + identityLimits.codeMs);
  const masked = change.kind === 'email' ? maskRecipient(value) : maskPhone(value);
  await db.transaction(async (q) => {
    await insertContactChange(q, {
      id,
      userId: user.id,
      kind: change.kind,
      newValue: value,
      deliverable: !inUse,
      codeHash: hashCode(code, salt, id),
      salt,
      maxAttempts: identityLimits.mobileCodeAttempts,
      createdAt: at,
      expiresAt,
    });
    await authn.audit(q, meta, {
      eventId: `profile.${change.kind}.code.sent`,
      customerId,
      isSuccess: true,
      details: change.kind === 'email' ? { emailAddress: masked } : { phoneNumber: masked },
    });
  });

  const message =
    change.kind === 'mobile'
      ? mobileChangeCodeText(value, customerId, code)
      : inUse
        ? addressInUseEmail(value, c.config.publicUrl)
        : emailChangeCodeEmail(value, user, code);
  try {
    // Sent before the answer, as sign-in codes are: the customer waits for it, and a failure must say so.
    await notifier(c.ctx).sendNow(message, meta.log);
  } catch (error) {
    if (error instanceof DeliveryError) {
      await killContactChange(db, id, now());
      throw notSent();
    }
    throw error;
  }
  return { expiresAt, codeLength: 6 };
}

export async function confirmContactChange(
  c: IdentityServiceContext,
  ...[customerId, kind, passCode, alongside, meta = {}]: Parameters<IdentityService['confirmContactChange']>
): ReturnType<IdentityService['confirmContactChange']> {
  const { db, now, authn } = c;
  const refused = (reason: string): ContactChangeOutcome => ({ ok: false, refused: 'code', reason });
  const user = await findUserByCustomerId(db, customerId);
  if (!user || user.status !== 'ACTIVE') throw notFound('No online account for this customer');
  const at = now();
  const purpose = `${kind}-change`;
  const outcome = await db.transaction(async (q): Promise<ContactChangeOutcome> => {
    const fresh = await findUserById(q, user.id, true);
    if (!fresh || fresh.status !== 'ACTIVE') return refused('This code can no longer be used.');
    if (authn.isLocked(fresh)) return { ok: false, refused: 'locked', reason: 'Locked' };
    const change = await latestContactChange(q, user.id, kind);
    const refuse = async (failureReason: string, reason: string, extra: Record<string, unknown> = {}) => {
      await authn.audit(q, meta, {
        eventId: 'identity.mfa.failed',
        customerId,
        isSuccess: false,
        failureReason,
        details: { purpose, ...extra },
      });
      return refused(reason);
    };
    if (!change || change.usedAt || change.deadAt) {
      return refuse('CODE_NOT_ACTIVE', 'This code can no longer be used. Ask for a new code.');
    }
    if (change.expiresAt.getTime() <= at.getTime()) {
      await killContactChange(q, change.id, at);
      return refuse('CODE_EXPIRED', 'This code has expired. Ask for a new code.');
    }
    const matches =
      change.deliverable &&
      /^\d{6}$/.test(passCode) &&
      sameDigest(hashCode(passCode, change.salt, change.id), change.codeHash);
    if (!matches) {
      const exhausted = change.attempts + 1 >= change.maxAttempts;
      await recordContactChangeAttempt(q, change.id, at, exhausted);
      const { lockedNow } = await countFailure(q, fresh, at);
      const answer = await refuse(
        exhausted ? 'CODE_ATTEMPTS_EXCEEDED' : 'WRONG_CODE',
        exhausted
          ? 'That code is not right and can no longer be used. Ask for a new code.'
          : 'That code is not right. Check it and try again.',
        { attemptsLeft: change.maxAttempts - change.attempts - 1 },
      );
      if (lockedNow) await authn.lockAccount(q, fresh, at, meta, 'CODE');
      return answer;
    }
    if (!(await useContactChange(q, change.id, at))) {
      return refuse('CODE_NOT_ACTIVE', 'This code can no longer be used. Ask for a new code.');
    }
    let previous: string | null;
    if (kind === 'email') {
      // The customer has shown the address is theirs; another account may still have taken it meanwhile.
      const owner = await findUserByLogin(q, change.newValue);
      if (owner && owner.id !== user.id) return { ok: false, refused: 'in-use', reason: 'In use' };
      previous = fresh.login;
      await setLogin(q, user.id, change.newValue);
    } else {
      const factors = await listFactors(q, user.id);
      previous = factors.find((f) => f.factorType === 'sms')?.phoneNumber ?? null;
      // The text factor (and the call to the mobile) move to the new number; calls to a landline stay.
      const landlines = factors.filter((f) => !f.isMobile).map((f) => f.phoneNumber);
      await syncFactors(q, user.id, factorsForNumbers([change.newValue, ...landlines]), at);
    }
    await authn.audit(q, meta, {
      eventId: 'identity.stepup.verified',
      customerId,
      isSuccess: true,
      details: { purpose },
    });
    await alongside(q, { previous, value: change.newValue, at });
    return { ok: true, previous, value: change.newValue, at };
  });
  if (!outcome.ok && outcome.refused === 'locked') {
    const locked = await findUserById(db, user.id);
    if (locked?.lockedUntil) throw lockedError(c, locked);
  }
  return outcome;
}

export async function closeAccount(
  c: IdentityServiceContext,
  ...[customerId, passCode, alongside, meta = {}]: Parameters<IdentityService['closeAccount']>
): ReturnType<IdentityService['closeAccount']> {
  const { db, now, authn } = c;
  const noCode = (
    reason = 'That code is not right, or it has expired. Ask for a new code.',
  ): AccountClosing => ({
    ok: false,
    reason,
  });
  const user = await findUserByCustomerId(db, customerId);
  if (!user || user.status !== 'ACTIVE') throw notFound('No online account for this customer');
  if (authn.isLocked(user)) throw lockedError(c, user);
  const at = now();
  return db.transaction(async (q): Promise<AccountClosing> => {
    // Holding the step-up's row: a second closing with the same code waits here, then finds it finished.
    const t = await findOpenStepUp(q, user.id, at);
    const fresh = await findUserById(q, user.id, true);
    if (!t || t.status !== 'MFA_CHALLENGE' || !t.factorId) return noCode();
    if (!fresh || fresh.status !== 'ACTIVE' || authn.isLocked(fresh)) return noCode();
    const matched = await authn.matchCode(q, t, fresh, t.factorId, passCode, meta, at);
    if (!matched.ok) return noCode(matched.cause);
    if (!(await useCode(q, matched.code.id, at))) return noCode();
    await updateTransaction(q, t.id, { status: 'SUCCESS', completedAt: at });
    await authn.audit(q, meta, {
      eventId: 'identity.stepup.verified',
      customerId,
      isSuccess: true,
      details: { purpose: 'close-account' },
    });
    // The sessions first (they name the account), then the account itself: its password, factors,
    // authenticators, passkeys, backup codes, codes and tokens go with it (ON DELETE CASCADE).
    await alongside(q, { userId: user.id, login: fresh.login });
    await deleteUser(q, user.id);
    return { ok: true, at, login: fresh.login };
  });
}
