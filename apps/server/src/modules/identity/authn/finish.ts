import type { Queryable } from '../../../platform/db';
import {
  activateUser,
  insertSessionToken,
  listFactors,
  recordFactorUse,
  recordSuccess,
  setPassword,
  updateTransaction,
  voidLinkTokens,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { hashToken, randomToken } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { identityLimits } from './limits';

/**
 * The second factor of a sign-in, activation or recovery is verified (its code used up, in `q`): the
 * transaction succeeds, the pending password takes effect, an activation activates, and the customer
 * gets a one-time sessionToken (5 minutes) for the OpenID provider.
 */
export async function finishTransaction(
  c: AuthnContext,
  q: Queryable,
  t: TransactionRow,
  user: UserRow,
  factorId: string,
  meta: RequestMeta,
  at: Date,
  appMethod?: 'totp' | 'backup_code' | 'webauthn',
): Promise<{ sessionToken: string; sessionExpiresAt: Date }> {
  await updateTransaction(q, t.id, { status: 'SUCCESS', completedAt: at, pendingPasswordHash: null });
  await recordSuccess(q, user.id, at);
  const method =
    appMethod ?? (await listFactors(q, user.id)).find((f) => f.id === factorId)?.factorType ?? null;
  // The app and backup codes record their own use; a phone number's is kept here, for "last used first".
  if (!appMethod) await recordFactorUse(q, factorId, at);
  if (t.pendingPasswordHash) {
    await setPassword(q, user.id, t.pendingPasswordHash, at, t.kind === 'recovery');
    await c.audit(q, meta, {
      eventId: 'identity.password.set',
      customerId: user.customerId,
      isSuccess: true,
      details: { purpose: t.kind },
    });
  }
  if (t.kind === 'activation') {
    await activateUser(q, user.id, at);
    await voidLinkTokens(q, user.id, 'activation', at);
    await c.audit(q, meta, { eventId: 'identity.activation', customerId: user.customerId, isSuccess: true });
  }
  if (t.kind === 'recovery') {
    await voidLinkTokens(q, user.id, 'recovery', at);
    // A reset is what a customer does when someone else may know the password: every session ends now
    // (refresh tokens, provider sessions, and so every access token, by the customer guard's grant check).
    const sessionsEnded = t.pendingPasswordHash ? await c.endSessions(q, user.id, null) : 0;
    await c.audit(q, meta, {
      eventId: 'identity.password.reset',
      customerId: user.customerId,
      isSuccess: true,
      details: { sessionsEnded },
    });
  }
  // RFC 8176 method names: a text message is 'sms', a voice call 'tel', an authenticator app's or a backup
  // code 'otp', a passkey 'hwk' (a key held by the device); any of them with the password is 'mfa'.
  const second =
    method === 'sms'
      ? ['sms']
      : method === 'call'
        ? ['tel']
        : method === 'webauthn'
          ? ['hwk']
          : method
            ? ['otp']
            : [];
  return issueSessionToken(c, q, user, ['pwd', ...second, 'mfa'], meta, at, {
    mfaSendMethod: method,
    mfaUsedForLogin: true,
    purpose: t.kind,
  });
}

/**
 * A one-time sessionToken (5 minutes) for the OpenID provider, with the session's `amr`, and the
 * identity.signin audit row: how every sign-in ends, a passkey alone included.
 */
export async function issueSessionToken(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  amr: string[],
  meta: RequestMeta,
  at: Date,
  details: Record<string, unknown>,
): Promise<{ sessionToken: string; sessionExpiresAt: Date }> {
  const sessionExpiresAt = new Date(at.getTime() + identityLimits.sessionTokenMs);
  const sessionToken = randomToken('20');
  await insertSessionToken(q, {
    tokenHash: hashToken(sessionToken),
    userId: user.id,
    createdAt: at,
    expiresAt: sessionExpiresAt,
    amr,
  });
  await c.audit(q, meta, {
    eventId: 'identity.signin',
    customerId: user.customerId,
    isSuccess: true,
    details,
  });
  return { sessionToken, sessionExpiresAt };
}
