import type { ErasurePort } from '../../platform/module';

/**
 * The policy module's part in erasing a customer (decision 020): their policies, quotes and agency link.
 * The document module, above this one on the map, has already erased the packs and documents that
 * belong to these policies and quotes; the account module, below, erases the customer's record after
 * (policy.customer_id does not cascade from it). The agencies themselves are the insurer's reference data,
 * shared by customers, and stay.
 */
export const policyErasure: ErasurePort = {
  async erase(tx, customerId) {
    await tx.query('DELETE FROM customer_agency WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM quote WHERE customer_id = $1', [customerId]);
    const { rowCount } = await tx.query('DELETE FROM policy WHERE customer_id = $1', [customerId]);
    return { policies: rowCount };
  },
};
