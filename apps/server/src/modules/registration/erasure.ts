import type { ErasurePort } from '../../platform/module';

/** The registration module's part in erasing a customer: their registrations (they hold the email typed). */
export const registrationErasure: ErasurePort = {
  async erase(tx, customerId) {
    const { rowCount } = await tx.query('DELETE FROM registration_request WHERE customer_id = $1', [
      customerId,
    ]);
    return { registrations: rowCount };
  },
};
