import { writeAudit } from '../../platform/audit';
import type { Queryable } from '../../platform/db';
import type { ModuleContext } from '../../platform/module';
import { eraseCustomerMessages } from '../../platform/notifier/erasure';
import { eraseCustomerRecord, lockCustomerForErasure } from '../account/erasure';
import { eraseCustomerDocuments } from '../document/erasure';
import { eraseSignInAccount } from '../identity/erasure';
import { eraseKnownBrowsers, eraseProviderState } from '../oidc/erasure';
import { erasePolicies } from '../policy/erasure';
import { eraseRegistrations } from '../registration/erasure';
import { deleteCustomerEvents } from './events.repository';

/**
 * Erases one customer (data protection erasure asked for by the insurer): their sign-in, sessions and
 * personal data in every module, in the caller's transaction. Answers false when no such customer is held.
 * What is kept and why: docs/decisions/020-customer-erasure.md. Each module deletes its own rows; the
 * order is the foreign keys' (documents before policies, everything before the customer record).
 *
 * Every step runs even when the customer record is not held, so an erasure also clears what a half-loaded
 * customer left behind; for a customer never held they all delete nothing.
 */
export async function eraseCustomer(ctx: ModuleContext, tx: Queryable, customerId: string): Promise<boolean> {
  const held = await lockCustomerForErasure(tx, customerId);
  const accountIds = await eraseSignInAccount(tx, customerId);
  const erased = {
    signInAccounts: accountIds.length,
    providerRows: await eraseProviderState(tx, accountIds),
    registrations: await eraseRegistrations(tx, customerId),
    messages: await eraseCustomerMessages(tx, customerId),
    documents: await eraseCustomerDocuments(tx, customerId),
    policies: await erasePolicies(tx, customerId),
    customerRecord: await eraseCustomerRecord(tx, customerId),
    records: await tombstoneRecords(ctx, tx, customerId),
  };
  // What the customer changed and the insurer has not yet taken (their deliveries cascade): the insurer
  // that erased the customer has no use for it.
  await deleteCustomerEvents(tx, customerId);
  // The browsers they signed in from (their sign-in sessions went with the provider rows).
  await eraseKnownBrowsers(tx, customerId);
  // Only counts: the record of the erasure must not hold what it erased.
  if (Object.values(erased).some((n) => n !== 0 && n !== false)) {
    await writeAudit(tx, {
      source: 'server',
      eventId: 'customer.erased',
      customerId,
      isSuccess: true,
      occurredAt: ctx.clock.now(),
      details: erased,
    });
  }
  return held;
}

/**
 * The bookkeeping of every record loaded for the customer becomes a tombstone: its version stays, so a
 * late, older write cannot bring a record back, and nothing claims the records are still held. The rows
 * hold the insurer's ids and versions only, no personal data.
 */
async function tombstoneRecords(ctx: ModuleContext, tx: Queryable, customerId: string): Promise<number> {
  const { rowCount } = await tx.query(
    `UPDATE integration_record SET removed = true, content_sha256 = NULL, updated_at = $2
      WHERE customer_id = $1 AND NOT removed`,
    [customerId, ctx.clock.now()],
  );
  return rowCount;
}
