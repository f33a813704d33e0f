import type { Queryable } from '../../platform/db';
import type { ErasurePort } from '../../platform/module';

/** The identity accounts of a customer (one at most today), read in the caller's transaction. */
export async function accountIdsOf(q: Queryable, customerId: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM identity_user WHERE customer_id = $1', [
    customerId,
  ]);
  return rows.map((r) => r.id);
}

/**
 * Deletes the customer's sign-in account (data protection erasure); its factors, authentication
 * transactions, codes, session tokens and emailed-link tokens go with it (ON DELETE CASCADE). With the
 * account gone, signing in with the old login takes the unknown-user path: the same answer and work. The
 * OpenID provider's rows of the account go first (the oidc module, above this one on the map).
 */
export const identityErasure: ErasurePort = {
  async erase(tx, customerId) {
    const { rowCount } = await tx.query('DELETE FROM identity_user WHERE customer_id = $1', [customerId]);
    return { signInAccounts: rowCount };
  },
};
