import { hashPassword } from '../../../platform/password-hash';
import { findUserByCustomerId, holdSeedLock, insertUser, syncFactors } from '../identity.repository';
import { newId } from '../secrets';
import type { IdentityServiceContext } from './context';
import { factorsForNumbers } from './factors';
import type { IdentityService } from './types';

/**
 * An ACTIVE sign-in account made without registering, for the demo data (db/demo/): its password hashed
 * (argon2id) and factors for its numbers, registered `registeredAt`. Idempotent and cheap on later starts:
 * an account the customer already has is left alone (never hashed again).
 */
export async function createSeededAccount(
  c: IdentityServiceContext,
  ...[account]: Parameters<IdentityService['createSeededAccount']>
): ReturnType<IdentityService['createSeededAccount']> {
  const { db } = c;
  if (await findUserByCustomerId(db, account.customerId)) return;
  const passwordHash = await hashPassword(account.password);
  const now = c.now();
  await db.transaction(async (q) => {
    // Two instances seeding one new database at once: the second waits, then finds the account.
    await holdSeedLock(q);
    if (await findUserByCustomerId(q, account.customerId)) return;
    const id = newId('00u');
    await insertUser(q, {
      id,
      customerId: account.customerId,
      login: account.login,
      status: 'ACTIVE',
      firstName: account.firstName,
      lastName: account.lastName,
      passwordHash,
      now,
    });
    await syncFactors(q, id, factorsForNumbers(account.phoneNumbers), now);
    await q.query('UPDATE identity_user SET created_at = $2, activated_at = $2 WHERE id = $1', [
      id,
      account.registeredAt,
    ]);
  });
}
