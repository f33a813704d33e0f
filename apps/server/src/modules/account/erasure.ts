import type { ErasurePort } from '../../platform/module';

/**
 * The account module's part in erasing a customer (decision 020). First, before any module erases, the
 * customer's record is locked, so a write for this customer racing the erasure (a policy loaded, a
 * preference changed) waits and then finds no customer instead of slipping a row in before the record
 * is deleted. Then the record goes, with what this module holds of theirs: preferences (with a
 * correspondence address), notifications shown to them and their contact-us messages. The notification
 * campaigns are not the customer's and stay. The modules above this one on the map erase first: their
 * rows refer to the record.
 */
export const accountErasure: ErasurePort = {
  async lock(tx, customerId) {
    const { rows } = await tx.query('SELECT 1 FROM customer WHERE customer_id = $1 FOR UPDATE', [customerId]);
    return rows.length > 0;
  },
  async erase(tx, customerId) {
    await tx.query('DELETE FROM contact_message WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM customer_notification WHERE customer_id = $1', [customerId]);
    await tx.query('DELETE FROM customer_preferences WHERE customer_id = $1', [customerId]);
    const { rowCount } = await tx.query('DELETE FROM customer WHERE customer_id = $1', [customerId]);
    return { customerRecord: rowCount > 0 };
  },
};
