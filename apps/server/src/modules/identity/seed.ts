import { hashPassword } from '../../platform/password-hash';
import { demoCustomers } from '../../db/demo-customers';
import type { ModuleContext } from '../../platform/module';
import { findUserByCustomerId, holdSeedLock, insertUser, syncFactors } from './identity.repository';
import { factorsForNumbers } from './identity.service';
import { newId } from './secrets';

/** How long before today the demo accounts were registered. */
const DEMO_ACCOUNT_AGE_DAYS = 400;

/**
 * The sign-in accounts of the demo customers marked `registered`: ACTIVE, with their demo password
 * (argon2id) and factors for their numbers. Idempotent and cheap on later starts: an existing account is
 * left alone (never re-hashed). Unregistered demo customers get an account only when they register.
 */
export async function seedIdentity(ctx: ModuleContext): Promise<void> {
  for (const customer of demoCustomers) {
    if (!customer.registered || !customer.email) continue;
    if (await findUserByCustomerId(ctx.db, customer.customerId)) continue;
    const passwordHash = await hashPassword(customer.registered.password);
    const now = ctx.clock.now();
    await ctx.db.transaction(async (q) => {
      // Two instances seeding one new database at once: the second waits, then finds the account.
      await holdSeedLock(q);
      if (await findUserByCustomerId(q, customer.customerId)) return;
      const id = newId('00u');
      await insertUser(q, {
        id,
        customerId: customer.customerId,
        login: customer.email!,
        status: 'ACTIVE',
        firstName: customer.firstName,
        lastName: customer.lastName,
        passwordHash,
        now,
      });
      await syncFactors(q, id, factorsForNumbers([customer.mobileNumber, customer.landlineNumber]), now);
      // Registered long before today, as the demo's story has it: no demo account is a new registration
      // (the passkey offer after registration is for those only).
      await q.query('UPDATE identity_user SET created_at = $2, activated_at = $2 WHERE id = $1', [
        id,
        new Date(now.getTime() - DEMO_ACCOUNT_AGE_DAYS * 86_400_000),
      ]);
    });
  }
}
