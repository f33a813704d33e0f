import type { ErasurePort } from '../../platform/module';

/**
 * The document module's part in erasing a customer (decision 020): policy and quote documents and their
 * packs, billing accounts (with the last two digits of the bank account) and billing documents. Before the
 * policy module's (below it on the map), whose policies and quotes these belong to. An uploaded PDF goes
 * with the last document that refers to it (a trigger of migration 092); a file another customer's
 * document still refers to (a shared leaflet) stays.
 */
export const documentErasure: ErasurePort = {
  async erase(tx, customerId) {
    const documents = await tx.query('DELETE FROM document WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM document_pack WHERE customer_id = $1', [customerId]);
    const bills = await tx.query('DELETE FROM billing_document WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM billing_account WHERE customer_id = $1', [customerId]);
    return { documents: documents.rowCount + bills.rowCount };
  },
};
