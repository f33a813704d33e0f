import type { PolicySummary } from '@portal/contracts/policy';

export interface PolicyGroupsInput {
  active: readonly PolicySummary[];
  renewing: readonly PolicySummary[];
  upcoming: readonly PolicySummary[];
  expired: readonly PolicySummary[];
}

type PolicyCategory = 'active' | 'upcoming' | 'expired';

const labels: Record<PolicyCategory, string> = { active: 'Active', upcoming: 'Upcoming', expired: 'Expired' };

/** Active (with renewing), upcoming and expired, in that order: the sub-navigation's and the redirect's order. */
export function categoryGroups(policies: PolicyGroupsInput) {
  return [
    {
      category: 'active' as const,
      label: labels.active,
      policies: [...policies.active, ...policies.renewing],
    },
    { category: 'upcoming' as const, label: labels.upcoming, policies: [...policies.upcoming] },
    { category: 'expired' as const, label: labels.expired, policies: [...policies.expired] },
  ];
}

/** Spec §4: the policy redirect looks for the policy among the active, upcoming and expired lists. */
export function findPolicy(policies: PolicyGroupsInput, policyNumber: string): PolicySummary | undefined {
  const wanted = policyNumber.toUpperCase();
  for (const group of categoryGroups(policies)) {
    const found = group.policies.find((policy) => policy.policyNumber.toUpperCase() === wanted);
    if (found) return found;
  }
  return undefined;
}
