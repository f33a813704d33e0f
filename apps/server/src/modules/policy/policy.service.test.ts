import { describe, expect, it } from 'vitest';
import { databases } from '../../../test/helpers';
import { createPoliciesService } from './policy.service';

describe.each(databases())('policy records on $name', ({ open }) => {
  it('finds a policy by number in any case and lists a customer’s policies', async () => {
    const db = await open();
    try {
      const policies = createPoliciesService(db);
      expect(await policies.findByNumber('102q45678912')).toEqual({
        policyNumber: '102Q45678912',
        customerId: 'C1000001',
        productType: 'MPC',
        productName: 'Motor Insurance',
        status: 'Active',
        startDate: '2026-07-15',
        renewalDate: '2027-07-15',
        annualPremium: 389,
        paymentFrequency: 'Annual',
        vehicleReg: ['AB12 CDE'],
        details: {},
      });
      expect((await policies.findByNumber('204X7654321'))?.annualPremium).toBe(845.75);
      expect(await policies.findByNumber('999X0000000')).toBeNull();
      expect(await policies.findByNumber('x'.repeat(500))).toBeNull();

      const margaret = await policies.listForCustomer('C1000001');
      expect(margaret.map((p) => p.policyNumber)).toEqual(['102Q45678912', '102X4567891']);
      expect(await policies.listForCustomer('C9999999')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('refuses a policy number the spec does not allow and a policy for an unknown customer', async () => {
    const db = await open();
    try {
      const insert = (number: string, customer: string) =>
        db
          .transaction((tx) =>
            tx.query(
              `INSERT INTO policy (policy_number, customer_id, product_type, product_name, status, start_date,
                 renewal_date, annual_premium, payment_frequency)
               VALUES ($1, $2, 'PHL', 'Home Insurance', 'Active', '2026-01-01', '2027-01-01', 1, 'Annual')`,
              [number, customer],
            ),
          )
          .then(
            () => 'inserted',
            (e: { code?: string }) => e.code,
          );
      expect(await insert('12X1234567', 'C1000001')).toBe('23514');
      expect(await insert('123X12345678', 'C1000001')).toBe('23514');
      expect(await insert('123X7654321', 'C9999999')).toBe('23503');
    } finally {
      await db.close();
    }
  });
});
