import {
  consumeSessionToken as spendSessionToken,
  findPasswordChangedAt,
  findUserByCustomerId,
  findUserById,
} from '../identity.repository';
import { hashToken } from '../secrets';
import { publicUser } from './types';
import type { IdentityService } from './types';
import type { IdentityServiceContext } from './context';

/* Who an account is: the sessionToken that completes the authorize step, and the user by id or customer. */

export async function consumeSessionToken(
  c: IdentityServiceContext,
  ...[token]: Parameters<IdentityService['consumeSessionToken']>
): ReturnType<IdentityService['consumeSessionToken']> {
  const { db, now } = c;
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return null;
  const used = await spendSessionToken(db, hashToken(token), now());
  if (!used) return null;
  const user = await findUserById(db, used.userId);
  if (!user || user.status !== 'ACTIVE') return null;
  return { userId: user.id, customerId: user.customerId, login: user.login, amr: used.amr };
}

export async function getUser(
  c: IdentityServiceContext,
  ...[userId]: Parameters<IdentityService['getUser']>
): ReturnType<IdentityService['getUser']> {
  const { db } = c;
  const user = await findUserById(db, userId);
  return user ? publicUser(user) : null;
}

export async function getUserByCustomerId(
  c: IdentityServiceContext,
  ...[customerId, tx]: Parameters<IdentityService['getUserByCustomerId']>
): ReturnType<IdentityService['getUserByCustomerId']> {
  const user = await findUserByCustomerId(tx ?? c.db, customerId);
  return user ? publicUser(user) : null;
}

export async function getPasswordLastUpdated(
  c: IdentityServiceContext,
  ...[customerId]: Parameters<IdentityService['getPasswordLastUpdated']>
): ReturnType<IdentityService['getPasswordLastUpdated']> {
  return findPasswordChangedAt(c.db, customerId);
}
