import type { Db, Queryable } from '../../platform/db';
import type { Clock } from '../../platform/clock';
import { demoCustomers } from '../../db/demo-customers';
import {
  findPolicyByNumber,
  listPoliciesForCustomer,
  upsertDemoPolicy,
  type PolicyRecord,
} from './policy.repository';

export type { PolicyRecord, PolicyStatus } from './policy.repository';

export interface PoliciesService {
  /** The policy with that number (case and surrounding spaces ignored), or null. */
  findByNumber(policyNumber: string): Promise<PolicyRecord | null>;
  /** Every policy of the customer, newest start first; [] for an unknown customer. */
  listForCustomer(customerId: string): Promise<PolicyRecord[]>;
}

/** Policy numbers are typed by customers: "102x4567891 " is the same policy as "102X4567891". */
export function normalisePolicyNumber(policyNumber: string): string {
  return policyNumber.trim().toUpperCase();
}

export function createPoliciesService(db: Db): PoliciesService {
  return {
    async findByNumber(policyNumber) {
      const normalised = normalisePolicyNumber(policyNumber);
      if (normalised === '' || normalised.length > 20) return null;
      return findPolicyByNumber(db, normalised);
    },
    listForCustomer: (customerId) => listPoliciesForCustomer(db, customerId),
  };
}

/** Loads the demo customers' policies. Runs after the account seed (policies reference customers). */
export async function seedPolicies(q: Queryable, clock: Clock): Promise<void> {
  const now = clock.now();
  for (const customer of demoCustomers) {
    for (const policy of customer.policies) await upsertDemoPolicy(q, customer.customerId, policy, now);
  }
}
