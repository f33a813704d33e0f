import type { Queryable } from '../../platform/db';

/**
 * Deletes the customer's sign-in account (data protection erasure); its factors, authentication
 * transactions, codes, session tokens and emailed-link tokens go with it (ON DELETE CASCADE). Answers the
 * deleted user ids, which the OpenID provider knows the account by, so its sessions can end too. With
 * the account gone, signing in with the old login takes the unknown-user path: the same answer and work.
 */
export async function eraseSignInAccount(tx: Queryable, customerId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    'DELETE FROM identity_user WHERE customer_id = $1 RETURNING id',
    [customerId],
  );
  return rows.map((r) => r.id);
}
