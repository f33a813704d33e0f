import type { Queryable } from '../../platform/db';

/**
 * Deletes everything the provider holds for these accounts (data protection erasure): sign-in sessions,
 * grants and every token or code issued under them, and interactions still in progress. Answers how many
 * rows went. Not indexed by account, so it reads the whole table: erasure is rare, sign-in is not.
 */
export async function eraseProviderState(tx: Queryable, accountIds: readonly string[]): Promise<number> {
  if (accountIds.length === 0) return 0;
  const { rowCount } = await tx.query(
    `DELETE FROM oidc_payload
      WHERE payload->>'accountId' = ANY($1::text[])
         OR grant_id IN (SELECT id FROM oidc_payload
                          WHERE model = 'Grant' AND payload->>'accountId' = ANY($1::text[]))
         OR (model = 'Interaction' AND (payload->'session'->>'accountId' = ANY($1::text[])
                                     OR payload->'result'->'login'->>'accountId' = ANY($1::text[])))`,
    [accountIds],
  );
  return rowCount;
}

/** Deletes the browsers a customer signed in from (the new-device rule's memory, decision 025). */
export async function eraseKnownBrowsers(tx: Queryable, customerId: string): Promise<number> {
  const { rowCount } = await tx.query('DELETE FROM portal_known_browser WHERE customer_id = $1', [
    customerId,
  ]);
  return rowCount;
}
