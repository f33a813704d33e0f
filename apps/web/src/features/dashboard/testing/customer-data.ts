import {
  getAgencyCall,
  getAgencyWithFallbackCall,
  getMutualDirectAgencyCall,
  listPoliciesCall,
  listQuotesCall,
  type PolicySummary,
  type Quote,
} from '@portal/contracts/policy';
import { getProfileCall } from '@portal/contracts/profile';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { testPolicySummary } from '../../../test/policy-fixtures';

/** `count` policies of one status, numbered from `first` (policy numbers 123X0000001, ...). */
export const policies = (count: number, status: PolicySummary['status'], first = 1): PolicySummary[] =>
  Array.from({ length: count }, (_, i) =>
    testPolicySummary({
      policyNumber: `123X${String(first + i).padStart(7, '0')}`,
      productName: `${status} policy ${first + i}`,
      status,
    }),
  );

interface Groups {
  active?: PolicySummary[];
  renewing?: PolicySummary[];
  upcoming?: PolicySummary[];
  expired?: PolicySummary[];
}

/**
 * Answers the six user-data calls of spec §7 for the signed-in customer: these policies and quotes, no
 * profile and no agency (the screens under test do not need them).
 */
export function serveCustomerData({ quotes = [], ...groups }: Groups & { quotes?: Quote[] }): void {
  const lists = {
    active: groups.active ?? [],
    renewing: groups.renewing ?? [],
    upcoming: groups.upcoming ?? [],
    expired: groups.expired ?? [],
  };
  const total = Object.values(lists).reduce((sum, list) => sum + list.length, 0);
  fakeApi.use(
    fakeCall(listPoliciesCall, () => ({
      status: 200,
      body: { ...lists, currentPage: 1, lastPage: 1, totalRecords: total },
    })),
    fakeCall(listQuotesCall, () => ({ status: 200, body: quotes })),
    fakeCall(getProfileCall, () => ({ status: 404 })),
    fakeCall(getAgencyCall, () => ({ status: 404 })),
    fakeCall(getAgencyWithFallbackCall, () => ({ status: 404 })),
    fakeCall(getMutualDirectAgencyCall, () => ({ status: 404 })),
  );
}
