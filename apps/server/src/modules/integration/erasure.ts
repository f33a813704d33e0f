// PLACEHOLDER (helper E replaces this file): a customer erased upstream.
import type { Queryable } from '../../platform/db';
import type { ModuleContext } from '../../platform/module';

/**
 * Erases one customer (data protection erasure asked for by the insurer): their sign-in, sessions and
 * personal data in every module, in the caller's transaction. Answers false when no such customer is held.
 */
export async function eraseCustomer(
  _ctx: ModuleContext,
  _tx: Queryable,
  _customerId: string,
): Promise<boolean> {
  return false;
}
