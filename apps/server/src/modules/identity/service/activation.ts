import { factorsForNumbers } from './factors';
import { activationEmail, alreadyRegisteredEmail } from '../emails';
import {
  findTransactionByStateToken,
  findUserByCustomerId,
  findUserById,
  findUserByLogin,
  insertUser,
  syncFactors,
  updateProvisionedUser,
} from '../identity.repository';
import { maskPhone } from '../phone';
import { hashToken, newId } from '../secrets';
import type { IdentityService } from './types';
import type { IdentityServiceContext } from './context';

/* Registration: the activation link (or the "already registered" reminder) and its finished transaction. */

export async function startActivation(
  c: IdentityServiceContext,
  ...[request, meta = {}]: Parameters<IdentityService['startActivation']>
): ReturnType<IdentityService['startActivation']> {
  const { db, config, now, send, authn } = c;
  const login = request.email.trim().toLowerCase();
  const factors = factorsForNumbers([request.mobileNumber, request.landlineNumber]);
  const at = now();
  const result = await db.transaction(async (q) => {
    const existing = await findUserByCustomerId(q, request.customerId, true);
    const owner = await findUserByLogin(q, login);
    if (owner && owner.customerId !== request.customerId) return { kind: 'reminder' as const, to: owner };
    if (existing && existing.status !== 'PROVISIONED') return { kind: 'reminder' as const, to: existing };
    if (factors.length === 0) return { kind: 'no-factors' as const };
    let userId: string;
    if (existing) {
      userId = existing.id;
      await updateProvisionedUser(q, userId, {
        login,
        firstName: request.firstName,
        lastName: request.lastName,
      });
    } else {
      userId = newId('00u');
      await insertUser(q, { ...request, id: userId, login, status: 'PROVISIONED', now: at });
    }
    await syncFactors(q, userId, factors, at);
    const token = await authn.issueLinkToken(q, userId, 'activation');
    await authn.audit(q, meta, {
      eventId: 'identity.activation.issued',
      customerId: request.customerId,
      isSuccess: true,
      details: { factors: factors.map((f) => `${f.factorType}:${maskPhone(f.phoneNumber)}`) },
    });
    return { kind: 'activation' as const, userId, token };
  });
  if (result.kind === 'no-factors') return { outcome: 'no-factors' };
  if (result.kind === 'reminder') {
    await db.transaction((q) =>
      authn.audit(q, meta, {
        eventId: 'identity.activation.issued',
        customerId: result.to.customerId,
        isSuccess: false,
        failureReason: 'ALREADY_REGISTERED',
      }),
    );
    await send(alreadyRegisteredEmail(result.to.login, result.to, config.publicUrl), meta);
    return { outcome: 'reminder' };
  }
  await send(activationEmail(login, request, config.publicUrl, result.token), meta);
  return { outcome: 'activation', userId: result.userId };
}

export async function getFinishedActivation(
  c: IdentityServiceContext,
  ...[userId, stateToken]: Parameters<IdentityService['getFinishedActivation']>
): ReturnType<IdentityService['getFinishedActivation']> {
  const { db, now } = c;
  if (stateToken.length > 200) return null;
  const t = await findTransactionByStateToken(db, hashToken(stateToken));
  if (
    !t ||
    t.kind !== 'activation' ||
    t.status !== 'SUCCESS' ||
    t.userId !== userId ||
    t.expiresAt.getTime() <= now().getTime()
  ) {
    return null;
  }
  const user = await findUserById(db, userId);
  return user ? { userId: user.id, customerId: user.customerId, login: user.login } : null;
}
