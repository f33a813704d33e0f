import type { PolicyRecordInput } from '@portal/contracts/integration/records';
import type { Queryable } from '../../platform/db';

/* The policy module's policies: the policy table (quotes and agencies have their own repositories). */

type PolicyStatus = 'Active' | 'Upcoming' | 'Expired' | 'Renewing' | 'RenewalCustomerReady';

/** One policy as stored. Dates are YYYY-MM-DD; the premium is in pounds. */
export interface PolicyRecord {
  policyNumber: string;
  customerId: string;
  productType: string;
  productName: string;
  apiProductType: string;
  policyType: string;
  status: PolicyStatus;
  startDate: string;
  renewalDate: string;
  annualPremium: number;
  premiumVisible: boolean;
  paymentFrequency: string;
  vehicleReg: string[];
  policyHolders: Array<{ name: string; primary: boolean }>;
  linesOfBusiness: unknown[];
  isMigrationRenewal: boolean;
  allowMTA: boolean;
  onlineViewRenewal: boolean;
  /** The policy system's own links for this policy; null: the portal's configured link. */
  actionUrls: { midTermAdjustment: string | null; viewRenewal: string | null; requestAChange: string | null };
}

/** One policy as the list shows it: its lines of business only by type (the renewals grid shows them). */
export type PolicySummaryRecord = Omit<PolicyRecord, 'linesOfBusiness'> & { lineOfBusinessTypes: string[] };

interface PolicyRow {
  policy_number: string;
  customer_id: string;
  product_type: string;
  product_name: string;
  api_product_type: string;
  policy_type: string;
  status: PolicyStatus;
  start_date: string;
  renewal_date: string;
  annual_premium: string;
  premium_visible: boolean;
  payment_frequency: string;
  vehicle_reg: unknown;
  policy_holders: unknown;
  lines_of_business: unknown;
  is_migration_renewal: boolean;
  allow_mta: boolean;
  online_view_renewal: boolean;
  mid_term_adjustment_url: string | null;
  view_renewal_url: string | null;
  request_a_change_url: string | null;
}

// Dates and numerics travel as text: pg would turn a date into a local-midnight Date and numeric into a
// string anyway, and PGlite differs; text is the same on both.
const columns = `policy_number, customer_id, product_type, product_name, api_product_type, policy_type, status,
  start_date::text AS start_date, renewal_date::text AS renewal_date, annual_premium::text AS annual_premium,
  premium_visible, payment_frequency, vehicle_reg, policy_holders, lines_of_business, is_migration_renewal,
  allow_mta, online_view_renewal, mid_term_adjustment_url, view_renewal_url, request_a_change_url`;

/**
 * The list's columns: the same but for the lines of business, of which only their types are read, from the
 * column generated from them (migration 140; a home policy's lines carry every valuable and cover: most of
 * the row's size).
 */
const summaryColumns = columns.replace('lines_of_business,', 'line_of_business_types,');

const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function toRecord(row: PolicyRow): PolicyRecord {
  return { ...toCommon(row), linesOfBusiness: array(row.lines_of_business) };
}

function toSummaryRecord(row: Omit<PolicyRow, 'lines_of_business'> & { line_of_business_types: unknown }) {
  return { ...toCommon(row), lineOfBusinessTypes: array(row.line_of_business_types).map(String) };
}

function toCommon(row: Omit<PolicyRow, 'lines_of_business'>): Omit<PolicyRecord, 'linesOfBusiness'> {
  return {
    policyNumber: row.policy_number,
    customerId: row.customer_id,
    productType: row.product_type,
    productName: row.product_name,
    apiProductType: row.api_product_type,
    policyType: row.policy_type,
    status: row.status,
    startDate: row.start_date,
    renewalDate: row.renewal_date,
    annualPremium: Number(row.annual_premium),
    premiumVisible: row.premium_visible,
    paymentFrequency: row.payment_frequency,
    vehicleReg: array(row.vehicle_reg).map(String),
    policyHolders: array(row.policy_holders) as PolicyRecord['policyHolders'],
    isMigrationRenewal: row.is_migration_renewal,
    allowMTA: row.allow_mta,
    onlineViewRenewal: row.online_view_renewal,
    actionUrls: {
      midTermAdjustment: row.mid_term_adjustment_url,
      viewRenewal: row.view_renewal_url,
      requestAChange: row.request_a_change_url,
    },
  };
}

export async function findPolicyByNumber(q: Queryable, policyNumber: string): Promise<PolicyRecord | null> {
  const { rows } = await q.query<PolicyRow>(`SELECT ${columns} FROM policy WHERE policy_number = $1`, [
    policyNumber,
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The policy's columns with its lines of business left out (read as none). */
const columnsWithoutLines = columns.replace('lines_of_business,', 'NULL AS lines_of_business,');

/**
 * One of the customer's policies, null when it is not theirs; with its lines of business unless `withLines`
 * is false (a home policy's lines carry every valuable and cover: most of the row), when they are empty.
 */
export async function findCustomerPolicy(
  q: Queryable,
  customerId: string,
  policyNumber: string,
  withLines = true,
): Promise<PolicyRecord | null> {
  const { rows } = await q.query<PolicyRow>(
    `SELECT ${withLines ? columns : columnsWithoutLines} FROM policy WHERE customer_id = $1 AND policy_number = $2`,
    [customerId, policyNumber],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** What a bill says of a policy: its number, product, premium, how it is paid and its dates. */
export interface PolicyBillingTerms {
  policyNumber: string;
  productName: string;
  paymentFrequency: 'Monthly' | 'Annual';
  annualPremium: number;
  startDate: string;
  renewalDate: string;
}

/**
 * The billing terms of those of the customer's policies whose numbers are given, in one query (the others are
 * left out): only the columns a bill shows, not the lines of business that make most of a policy's row.
 */
export async function findCustomerBillingTerms(
  q: Queryable,
  customerId: string,
  policyNumbers: readonly string[],
): Promise<PolicyBillingTerms[]> {
  if (policyNumbers.length === 0) return [];
  const { rows } = await q.query<{
    policy_number: string;
    product_name: string;
    payment_frequency: string;
    annual_premium: string;
    start_date: string;
    renewal_date: string;
  }>(
    `SELECT policy_number, product_name, payment_frequency, annual_premium::text AS annual_premium,
       start_date::text AS start_date, renewal_date::text AS renewal_date
     FROM policy WHERE customer_id = $1 AND policy_number = ANY($2::text[])`,
    [customerId, policyNumbers],
  );
  return rows.map((row) => ({
    policyNumber: row.policy_number,
    productName: row.product_name,
    paymentFrequency: row.payment_frequency === 'Monthly' ? 'Monthly' : 'Annual',
    annualPremium: Number(row.annual_premium),
    startDate: row.start_date,
    renewalDate: row.renewal_date,
  }));
}

/** One page of the customer's policies, newest start first, and how many they have in all. */
export async function listCustomerPolicies(
  q: Queryable,
  customerId: string,
  page: number,
  pageSize: number,
): Promise<{ policies: PolicySummaryRecord[]; total: number }> {
  // Ordered by the table's columns (the output's start_date is text): the index's own order, no sort.
  const { rows } = await q.query<
    Omit<PolicyRow, 'lines_of_business'> & { line_of_business_types: unknown; total: string }
  >(
    `SELECT ${summaryColumns}, count(*) OVER ()::text AS total FROM policy WHERE customer_id = $1
     ORDER BY policy.start_date DESC, policy.policy_number LIMIT $2 OFFSET $3`,
    [customerId, pageSize, (page - 1) * pageSize],
  );
  if (rows.length > 0) return { policies: rows.map(toSummaryRecord), total: Number(rows[0]!.total) };
  // A page past the end still says how many there are.
  const count = await q.query<{ total: string }>(
    'SELECT count(*)::text AS total FROM policy WHERE customer_id = $1',
    [customerId],
  );
  return { policies: [], total: Number(count.rows[0]?.total ?? 0) };
}

/** The customer a policy is held for, or null. */
export async function findPolicyHolder(q: Queryable, policyNumber: string): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'SELECT customer_id FROM policy WHERE policy_number = $1',
    [policyNumber],
  );
  return rows[0]?.customer_id ?? null;
}

/** A policy written again: every field from the new version (the one-row and the set upsert). */
const POLICY_UPSERT_CONFLICT = `ON CONFLICT (policy_number) DO UPDATE SET customer_id = EXCLUDED.customer_id,
       product_type = EXCLUDED.product_type, product_name = EXCLUDED.product_name, status = EXCLUDED.status,
       start_date = EXCLUDED.start_date, renewal_date = EXCLUDED.renewal_date,
       annual_premium = EXCLUDED.annual_premium, payment_frequency = EXCLUDED.payment_frequency,
       vehicle_reg = EXCLUDED.vehicle_reg, api_product_type = EXCLUDED.api_product_type,
       policy_type = EXCLUDED.policy_type, premium_visible = EXCLUDED.premium_visible,
       is_migration_renewal = EXCLUDED.is_migration_renewal, allow_mta = EXCLUDED.allow_mta,
       online_view_renewal = EXCLUDED.online_view_renewal, policy_holders = EXCLUDED.policy_holders,
       lines_of_business = EXCLUDED.lines_of_business, agency_id = EXCLUDED.agency_id,
       mid_term_adjustment_url = EXCLUDED.mid_term_adjustment_url, view_renewal_url = EXCLUDED.view_renewal_url,
       request_a_change_url = EXCLUDED.request_a_change_url, updated_at = EXCLUDED.updated_at`;

/** Inserts or replaces one policy as the insurer holds it. Its document packs are left as they are. */
export async function upsertPolicy(
  q: Queryable,
  policyNumber: string,
  p: PolicyRecordInput,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO policy (policy_number, customer_id, product_type, product_name, status, start_date, renewal_date,
                         annual_premium, payment_frequency, vehicle_reg, api_product_type, policy_type,
                         premium_visible, is_migration_renewal, allow_mta, online_view_renewal, policy_holders,
                         lines_of_business, agency_id, mid_term_adjustment_url, view_renewal_url,
                         request_a_change_url, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
             $23, $23)
     ${POLICY_UPSERT_CONFLICT}`,
    [
      policyNumber,
      p.customerId,
      p.productType,
      p.productName,
      p.status,
      p.startDate,
      p.renewalDate,
      p.annualPremium.value,
      p.paymentFrequency,
      JSON.stringify(p.vehicleReg),
      p.apiProductType,
      p.policyType,
      p.annualPremium.visible,
      p.isMigrationRenewal,
      p.allowMTA,
      p.onlineViewRenewal,
      JSON.stringify(p.policyHolders),
      JSON.stringify(p.linesOfBusiness),
      p.agencyId,
      p.actionUrls?.midTermAdjustment ?? null,
      p.actionUrls?.viewRenewal ?? null,
      p.actionUrls?.requestAChange ?? null,
      now,
    ],
  );
}

/** The customers the policies are held for, by policy number (those not held are missing). */
export async function findPolicyHolders(
  q: Queryable,
  policyNumbers: readonly string[],
): Promise<Map<string, string>> {
  if (policyNumbers.length === 0) return new Map();
  const { rows } = await q.query<{ policy_number: string; customer_id: string }>(
    'SELECT policy_number, customer_id FROM policy WHERE policy_number = ANY($1::text[])',
    [[...new Set(policyNumbers)]],
  );
  return new Map(rows.map((r) => [r.policy_number, r.customer_id]));
}

/** upsertPolicy for many policies (each at most once) in one statement. */
export async function upsertPolicies(
  q: Queryable,
  items: ReadonlyArray<{ policyNumber: string; record: PolicyRecordInput }>,
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  const column = <T>(f: (p: PolicyRecordInput) => T) => items.map((i) => f(i.record));
  await q.query(
    `INSERT INTO policy (policy_number, customer_id, product_type, product_name, status, start_date, renewal_date,
                         annual_premium, payment_frequency, vehicle_reg, api_product_type, policy_type,
                         premium_visible, is_migration_renewal, allow_mta, online_view_renewal, policy_holders,
                         lines_of_business, agency_id, mid_term_adjustment_url, view_renewal_url,
                         request_a_change_url, created_at, updated_at)
     SELECT policy_number, customer_id, product_type, product_name, status, start_date, renewal_date,
            annual_premium, payment_frequency, vehicle_reg::jsonb, api_product_type, policy_type,
            premium_visible, is_migration_renewal, allow_mta, online_view_renewal, policy_holders::jsonb,
            lines_of_business::jsonb, agency_id, mid_term_adjustment_url, view_renewal_url,
            request_a_change_url, $23, $23
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::date[],
                   $8::numeric[], $9::text[], $10::text[], $11::text[], $12::text[], $13::boolean[],
                   $14::boolean[], $15::boolean[], $16::boolean[], $17::text[], $18::text[], $19::text[],
                   $20::text[], $21::text[], $22::text[])
         AS r (policy_number, customer_id, product_type, product_name, status, start_date, renewal_date,
               annual_premium, payment_frequency, vehicle_reg, api_product_type, policy_type, premium_visible,
               is_migration_renewal, allow_mta, online_view_renewal, policy_holders, lines_of_business,
               agency_id, mid_term_adjustment_url, view_renewal_url, request_a_change_url)
     ${POLICY_UPSERT_CONFLICT}`,
    [
      items.map((i) => i.policyNumber),
      column((p) => p.customerId),
      column((p) => p.productType),
      column((p) => p.productName),
      column((p) => p.status),
      column((p) => p.startDate),
      column((p) => p.renewalDate),
      column((p) => p.annualPremium.value),
      column((p) => p.paymentFrequency),
      column((p) => JSON.stringify(p.vehicleReg)),
      column((p) => p.apiProductType),
      column((p) => p.policyType),
      column((p) => p.annualPremium.visible),
      column((p) => p.isMigrationRenewal),
      column((p) => p.allowMTA),
      column((p) => p.onlineViewRenewal),
      column((p) => JSON.stringify(p.policyHolders)),
      column((p) => JSON.stringify(p.linesOfBusiness)),
      column((p) => p.agencyId),
      column((p) => p.actionUrls?.midTermAdjustment ?? null),
      column((p) => p.actionUrls?.viewRenewal ?? null),
      column((p) => p.actionUrls?.requestAChange ?? null),
      now,
    ],
  );
}

/** Removes a policy (its document packs cascade); the customer it was held for, or null. */
export async function deletePolicy(q: Queryable, policyNumber: string): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'DELETE FROM policy WHERE policy_number = $1 RETURNING customer_id',
    [policyNumber],
  );
  return rows[0]?.customer_id ?? null;
}
