import { describe, expect, it } from 'vitest';
import { databases } from '../../../test/helpers';
import { loadConfig } from '../../config';
import { ManualClock } from '../../platform/clock';
import type { PolicyContext } from './context';
import { createPoliciesService } from './policy.service';

describe.each(databases())('policy records on $name', ({ open }) => {
  it('finds a policy by number in any case, for registration', async () => {
    const db = await open();
    try {
      const policies = createPoliciesService({
        config: loadConfig({ NODE_ENV: 'test' }),
        db,
        clock: new ManualClock(),
        services: {} as PolicyContext['services'],
      });
      expect(await policies.findByNumber('102q45678912')).toMatchObject({
        policyNumber: '102Q45678912',
        customerId: 'C1000001',
        productType: 'MPC',
        status: 'Active',
        annualPremium: 389,
        vehicleReg: ['AB12 CDE', 'KX19 LMN'],
      });
      expect((await policies.findByNumber('204X7654321'))?.annualPremium).toBe(845.75);
      expect(await policies.findByNumber('999X0000000')).toBeNull();
      expect(await policies.findByNumber('x'.repeat(500))).toBeNull();
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
