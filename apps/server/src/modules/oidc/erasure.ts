import type { ErasurePort } from '../../platform/module';
import type { OidcContext } from './context';

/**
 * The oidc module's part in erasing a customer (decision 020): everything the provider holds of their
 * sign-in account (sign-in sessions, grants and every token or code issued under them, interactions in
 * progress) and the browsers they signed in from. Runs before the identity module's (below it on the map)
 * deletes the account: the provider's rows are found by the account's id. Not indexed by account, so it
 * reads the whole table: erasure is rare, sign-in is not.
 */
export function oidcErasure(ctx: OidcContext): ErasurePort {
  return {
    async erase(tx, customerId) {
      const accountIds = await ctx.services.identity.accountIdsOf(tx, customerId);
      let providerRows = 0;
      if (accountIds.length > 0) {
        const { rowCount } = await tx.query(
          `DELETE FROM oidc_payload
            WHERE payload->>'accountId' = ANY($1::text[])
               OR grant_id IN (SELECT id FROM oidc_payload
                                WHERE model = 'Grant' AND payload->>'accountId' = ANY($1::text[]))
               OR (model = 'Interaction' AND (payload->'session'->>'accountId' = ANY($1::text[])
                                           OR payload->'result'->'login'->>'accountId' = ANY($1::text[])))`,
          [accountIds],
        );
        providerRows = rowCount;
      }
      // The browsers they signed in from (the new-device rule's memory, decision 025); their sign-in
      // sessions went with the provider rows.
      await tx.query('DELETE FROM portal_known_browser WHERE customer_id = $1', [customerId]);
      return { providerRows };
    },
  };
}
