import type { Queryable } from '../../platform/db';
import type { DemoPolicy } from '../../db/demo-customers';

export type PolicyStatus = 'Active' | 'Upcoming' | 'Expired' | 'Renewing' | 'RenewalCustomerReady';

/** One policy record as other modules see it. Dates are YYYY-MM-DD; the premium is in pounds. */
export interface PolicyRecord {
  policyNumber: string;
  customerId: string;
  productType: string;
  productName: string;
  status: PolicyStatus;
  startDate: string;
  renewalDate: string;
  annualPremium: number;
  paymentFrequency: string;
  vehicleReg: string[];
  details: Record<string, unknown>;
}

interface PolicyRow {
  policy_number: string;
  customer_id: string;
  product_type: string;
  product_name: string;
  status: PolicyStatus;
  start_date: string;
  renewal_date: string;
  annual_premium: string;
  payment_frequency: string;
  vehicle_reg: unknown;
  details: unknown;
}

// Dates and numerics travel as text: pg would turn a date into a local-midnight Date and numeric into a
// string anyway, and PGlite differs; text is the same on both.
const columns = `policy_number, customer_id, product_type, product_name, status,
  start_date::text AS start_date, renewal_date::text AS renewal_date, annual_premium::text AS annual_premium,
  payment_frequency, vehicle_reg, details`;

function toRecord(row: PolicyRow): PolicyRecord {
  return {
    policyNumber: row.policy_number,
    customerId: row.customer_id,
    productType: row.product_type,
    productName: row.product_name,
    status: row.status,
    startDate: row.start_date,
    renewalDate: row.renewal_date,
    annualPremium: Number(row.annual_premium),
    paymentFrequency: row.payment_frequency,
    vehicleReg: Array.isArray(row.vehicle_reg) ? row.vehicle_reg.map(String) : [],
    details:
      row.details && typeof row.details === 'object' && !Array.isArray(row.details)
        ? (row.details as Record<string, unknown>)
        : {},
  };
}

export async function findPolicyByNumber(q: Queryable, policyNumber: string): Promise<PolicyRecord | null> {
  const { rows } = await q.query<PolicyRow>(`SELECT ${columns} FROM policy WHERE policy_number = $1`, [
    policyNumber,
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function listPoliciesForCustomer(q: Queryable, customerId: string): Promise<PolicyRecord[]> {
  const { rows } = await q.query<PolicyRow>(
    `SELECT ${columns} FROM policy WHERE customer_id = $1 ORDER BY start_date DESC, policy_number`,
    [customerId],
  );
  return rows.map(toRecord);
}

/**
 * Inserts or refreshes one demo policy. Policy records are the insurer's data, so a restart brings
 * them back to the demo values; updated_at moves only when something differed.
 */
export async function upsertDemoPolicy(
  q: Queryable,
  customerId: string,
  p: DemoPolicy,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO policy (policy_number, customer_id, product_type, product_name, status, start_date, renewal_date,
       annual_premium, payment_frequency, vehicle_reg, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $11)
     ON CONFLICT (policy_number) DO UPDATE SET
       customer_id = EXCLUDED.customer_id, product_type = EXCLUDED.product_type,
       product_name = EXCLUDED.product_name, status = EXCLUDED.status, start_date = EXCLUDED.start_date,
       renewal_date = EXCLUDED.renewal_date, annual_premium = EXCLUDED.annual_premium,
       payment_frequency = EXCLUDED.payment_frequency, vehicle_reg = EXCLUDED.vehicle_reg,
       updated_at = EXCLUDED.updated_at
     WHERE (policy.customer_id, policy.product_type, policy.product_name, policy.status, policy.start_date,
            policy.renewal_date, policy.annual_premium, policy.payment_frequency, policy.vehicle_reg)
       IS DISTINCT FROM
           (EXCLUDED.customer_id, EXCLUDED.product_type, EXCLUDED.product_name, EXCLUDED.status,
            EXCLUDED.start_date, EXCLUDED.renewal_date, EXCLUDED.annual_premium, EXCLUDED.payment_frequency,
            EXCLUDED.vehicle_reg)`,
    [
      p.policyNumber,
      customerId,
      p.productType,
      p.productName,
      p.status,
      p.startDate,
      p.renewalDate,
      p.annualPremium,
      p.paymentFrequency,
      JSON.stringify(p.vehicleReg ?? []),
      now,
    ],
  );
}
