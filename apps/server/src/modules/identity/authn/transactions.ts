import type { Queryable } from '../../../platform/db';
import {
  findTransactionByStateToken,
  findUserById,
  insertTransaction,
  listFactors,
  type FactorRow,
  type TransactionKind,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { hashToken, newId, randomToken } from '../secrets';
import type { AuthnContext } from './context';
import { identityLimits } from './limits';

/** Starts a transaction (10 minutes) and gives its stateToken, which only the caller ever sees. */
export async function createTransaction(
  c: AuthnContext,
  q: Queryable,
  userId: string,
  kind: TransactionKind,
  status: TransactionRow['status'],
): Promise<{ stateToken: string; transaction: TransactionRow }> {
  const stateToken = randomToken('00');
  const createdAt = c.clock.now();
  const transaction: TransactionRow = {
    id: newId('txn'),
    userId,
    kind,
    status,
    factorId: null,
    enrolFactorId: null,
    pendingPasswordHash: null,
    sendCount: 0,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + identityLimits.stateTokenMs),
  };
  await insertTransaction(q, { ...transaction, stateTokenHash: hashToken(stateToken) });
  return { stateToken, transaction };
}

/** The live transaction of a stateToken, or 401 E0000011. */
export async function liveTransaction(
  c: AuthnContext,
  q: Queryable,
  stateToken: string,
  forUpdate = false,
): Promise<TransactionRow> {
  const t = await findTransactionByStateToken(q, hashToken(stateToken), forUpdate);
  if (
    !t ||
    t.kind === 'stepup' ||
    t.expiresAt.getTime() <= c.clock.now().getTime() ||
    t.status === 'CANCELLED' ||
    t.status === 'LOCKED_OUT'
  ) {
    throw oktaErrors.invalidToken();
  }
  return t;
}

/** The user of a transaction, or 401 E0000011. */
export async function userOf(q: Queryable, t: TransactionRow): Promise<UserRow> {
  const user = await findUserById(q, t.userId);
  if (!user) throw oktaErrors.invalidToken();
  return user;
}

/** The live transaction of a stateToken, its user and the user's factor `factorId`; else 401 or 404. */
export async function transactionFactor(
  c: AuthnContext,
  stateToken: string,
  factorId: string,
): Promise<{ t: TransactionRow; user: UserRow; factor: FactorRow }> {
  const t = await liveTransaction(c, c.db, stateToken);
  const user = await userOf(c.db, t);
  const factor = (await listFactors(c.db, user.id)).find((f) => f.id === factorId);
  if (!factor) throw oktaErrors.factorNotFound(factorId);
  return { t, user, factor };
}
