import { listPoliciesCall, type PolicySummary } from '@portal/contracts/policy';
import { callApi } from '../../../lib/api-client';

export interface PolicyGroups {
  active: PolicySummary[];
  renewing: PolicySummary[];
  upcoming: PolicySummary[];
  expired: PolicySummary[];
}

const NO_POLICIES: PolicyGroups = { active: [], renewing: [], upcoming: [], expired: [] };

/**
 * GET {policy}/api/v1/policy/{customerId}, every page. Spec §7: a failure gives empty lists, and the
 * failure is kept so the policies grid can say it could not load them.
 */
export async function fetchPolicySummaries(
  customerId: string,
  signal?: AbortSignal,
): Promise<PolicyGroups & { failed: boolean }> {
  const groups: PolicyGroups = { active: [], renewing: [], upcoming: [], expired: [] };
  try {
    for (let page = 1; ; page++) {
      const list = await callApi(listPoliciesCall, {
        params: { customerId },
        query: { page },
        signal,
      });
      for (const key of ['active', 'renewing', 'upcoming', 'expired'] as const)
        groups[key].push(...list[key]);
      if (page >= list.lastPage) return { ...groups, failed: false };
    }
  } catch {
    return { ...NO_POLICIES, failed: true };
  }
}
