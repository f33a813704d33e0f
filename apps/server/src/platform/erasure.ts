import { writeAudit } from './audit';
import { eraseCustomerEvents } from './customer-events';
import type { Queryable } from './db';
import type { ErasureCounts, ErasurePort, PlatformContext } from './module';
import { eraseCustomerMessages } from './notifier/erasure';

/**
 * Erases one customer (a data protection erasure the insurer asked for, decision 020): their sign-in,
 * sessions and personal data in every module, in the caller's transaction; answers false when no such
 * customer is held. What is kept and why: docs/decisions/020-customer-erasure.md.
 *
 * Each module erases its own rows through its port (`ports`, from the top of the module map down, so rows
 * that refer to the customer's record go before it), after every module has locked what must not change
 * meanwhile; the platform erases its own (messages queued or kept, changes not yet taken). Every step
 * runs even when the customer record is not held, so an erasure also clears what a half-loaded customer
 * left behind; for a customer never held they all delete nothing. One audit row records the counts only:
 * the record of the erasure must not hold what it erased.
 */
export async function eraseEverywhere(
  ctx: PlatformContext,
  tx: Queryable,
  customerId: string,
  ports: readonly ErasurePort[],
): Promise<boolean> {
  let held = false;
  for (const port of ports) if (port.lock && (await port.lock(tx, customerId))) held = true;
  const erased: ErasureCounts = {};
  for (const port of ports) Object.assign(erased, await port.erase(tx, customerId));
  erased['messages'] = await eraseCustomerMessages(tx, customerId);
  // What the customer changed and the insurer has not yet taken: the insurer that erased them has no use
  // for it. Not counted, as before: the count would say what they had done.
  await eraseCustomerEvents(tx, customerId);
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
