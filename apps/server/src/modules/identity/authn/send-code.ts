import type { RateDecision } from '../../../platform/counters';
import type { Queryable } from '../../../platform/db';
import { DeliveryError, type OutboundMessage } from '../../../platform/notifier';
import {
  findTransactionById,
  insertCode,
  killCodes,
  lastCodeSentAt,
  updateTransaction,
  type FactorRow,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { maskPhone } from '../phone';
import { generateCode, hashCode, newSalt } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { identityLimits } from './limits';

const HOUR = 60 * 60_000;

/** The outcome of sending a code, before it is shaped for Okta's API or the portal's. */
type SendOutcome =
  | { ok: true; expiresAt: Date; codeLength: 5 | 6; transaction: TransactionRow }
  | { ok: false; retryAfterSeconds: number; decision?: RateDecision };

/** Okta's 429 for a code that was not sent. */
export const sendFailure = (outcome: Extract<SendOutcome, { ok: false }>) =>
  oktaErrors.rateLimited(outcome.decision ?? { retryAfterSeconds: outcome.retryAfterSeconds });

function codeMessage(user: UserRow, factor: FactorRow, code: string): OutboundMessage {
  const spoken = code.split('').join(', ');
  return factor.factorType === 'sms'
    ? {
        channel: 'sms',
        to: factor.phoneNumber,
        kind: 'mfa-code',
        customerId: user.customerId,
        text: `Your security code is ${code}. It expires in 5 minutes. We will never ask you for this code.`,
      }
    : {
        channel: 'voice',
        to: factor.phoneNumber,
        kind: 'mfa-code',
        customerId: user.customerId,
        text: `Hello. Your security code is ${spoken}. Again, your security code is ${spoken}. It expires in 5 minutes.`,
      };
}

/**
 * Sends a new code for the factor in transaction `t` (the previous one dies): at most one send per
 * 30 seconds per factor, 5 per transaction, 10 per account and 30 per client address an hour.
 */
export async function issueCode(
  c: AuthnContext,
  t: TransactionRow,
  user: UserRow,
  factor: FactorRow,
  meta: RequestMeta,
): Promise<SendOutcome> {
  const { db } = c;
  const now = () => c.clock.now();
  const retryAfter = (until: Date) => Math.max(1, Math.ceil((until.getTime() - now().getTime()) / 1000));
  const tooSoon = async (q: Queryable): Promise<SendOutcome | null> => {
    const last = await lastCodeSentAt(q, t.id, factor.id);
    if (last && now().getTime() - last.getTime() < identityLimits.resendIntervalMs) {
      return {
        ok: false,
        retryAfterSeconds: retryAfter(new Date(last.getTime() + identityLimits.resendIntervalMs)),
      };
    }
    return null;
  };
  const early = await tooSoon(db);
  if (early) return early;
  if (t.sendCount >= identityLimits.sendsPerTransaction)
    return { ok: false, retryAfterSeconds: retryAfter(t.expiresAt) };
  const counters = await c.counters();
  if (meta.clientAddress) {
    const perAddress = await counters.take(
      `mfa-send-ip:${meta.clientAddress}`,
      identityLimits.codeSendsPerAddressPerHour,
      HOUR,
    );
    if (!perAddress.allowed) {
      return { ok: false, retryAfterSeconds: perAddress.retryAfterSeconds, decision: perAddress };
    }
  }
  const decision = await counters.take(`mfa-send:${user.id}`, identityLimits.sendsPerAccountPerHour, HOUR);
  if (!decision.allowed) return { ok: false, retryAfterSeconds: decision.retryAfterSeconds, decision };

  const codeLength: 5 | 6 = factor.isMobile ? 6 : 5;
  const code = generateCode(codeLength);
  const sentAt = now();
  const expiresAt = new Date(sentAt.getTime() + identityLimits.codeMs);
  const outcome = await db.transaction(async (q): Promise<SendOutcome> => {
    const fresh = await findTransactionById(q, t.id, true);
    if (!fresh || fresh.status !== t.status || fresh.sendCount >= identityLimits.sendsPerTransaction) {
      return { ok: false, retryAfterSeconds: retryAfter(t.expiresAt) };
    }
    const late = await tooSoon(q);
    if (late) return late;
    await killCodes(q, t.id, sentAt);
    const salt = newSalt();
    await insertCode(q, {
      transactionId: t.id,
      factorId: factor.id,
      codeHash: hashCode(code, salt, t.id),
      salt,
      codeLength,
      maxAttempts: factor.isMobile ? identityLimits.mobileCodeAttempts : identityLimits.landlineCodeAttempts,
      createdAt: sentAt,
      expiresAt,
    });
    const updated = {
      ...fresh,
      status: 'MFA_CHALLENGE' as const,
      factorId: factor.id,
      sendCount: fresh.sendCount + 1,
    };
    await updateTransaction(q, t.id, {
      status: updated.status,
      factorId: factor.id,
      sendCount: updated.sendCount,
    });
    await c.audit(q, meta, {
      eventId: 'identity.mfa.sent',
      customerId: user.customerId,
      isSuccess: true,
      details: {
        mfaSendMethod: factor.factorType,
        phoneNumber: maskPhone(factor.phoneNumber),
        codeLength,
        send: updated.sendCount,
        purpose: t.kind,
      },
    });
    return { ok: true, expiresAt, codeLength, transaction: updated };
  });
  if (!outcome.ok) return outcome;
  try {
    // A code is sent before the answer: the customer waits for it, and a failed send must say so (503, Retry-After).
    await c.notifier().sendNow(codeMessage(user, factor, code), meta.log);
  } catch (error) {
    if (error instanceof DeliveryError) {
      await killCodes(db, t.id, now());
      throw oktaErrors.deliveryFailed();
    }
    throw error;
  }
  if (t.kind === 'signin') c.signInOutcome('code_sent');
  return outcome;
}
