import type { ErasurePort } from '../../platform/module';
import type { IntegrationContext } from './context';

/**
 * The integration module's part in erasing a customer: the bookkeeping of every record loaded for them
 * becomes a tombstone. Its version stays, so a late, older write cannot bring a record back, and nothing
 * claims the records are still held. The rows hold the insurer's ids and versions only, no personal data.
 * (The customer DELETE that asks for the erasure is this module's too: records.ts.)
 */
export function integrationErasure(ctx: IntegrationContext): ErasurePort {
  return {
    async erase(tx, customerId) {
      const { rowCount } = await tx.query(
        `UPDATE integration_record SET removed = true, content_sha256 = NULL, updated_at = $2
          WHERE customer_id = $1 AND NOT removed`,
        [customerId, ctx.clock.now()],
      );
      return { records: rowCount };
    },
  };
}
