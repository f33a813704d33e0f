import type { ErasurePort } from '../../platform/module';
import { eraseNotices } from './notices.repository';
import { eraseSeen } from './seen.repository';

/**
 * The document module's part in erasing a customer (decision 020): policy and quote documents and their
 * packs, billing accounts (with the last two digits of the bank account) and billing documents. Before the
 * policy module's (below it on the map), whose policies and quotes these belong to. An uploaded PDF goes
 * with the last document that refers to it (a trigger of migration 092); a file another customer's
 * document still refers to (a shared leaflet) stays. The customer's document notices go too, pending or
 * sent (an email already queued is the message queue's, which erases its own).
 */
export const documentErasure: ErasurePort = {
  async erase(tx, customerId) {
    const documents = await tx.query('DELETE FROM document WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM document_pack WHERE customer_id = $1', [customerId]);
    const bills = await tx.query('DELETE FROM billing_document WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM billing_account WHERE customer_id = $1', [customerId]);
    const notices = await eraseNotices(tx, customerId);
    // What they had opened (the New marks).
    await eraseSeen(tx, customerId);
    return { documents: documents.rowCount + bills.rowCount, documentNotices: notices };
  },
};
