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

/** A policy summary as the policy service lists it. */
const summary = (overrides: Partial<PolicySummary> = {}): PolicySummary => ({
  policyNumber: '123X4567890',
  productName: 'Home Insurance',
  productType: 'PHL',
  apiProductType: 'home',
  policyType: 'Home Insurance',
  status: 'Active',
  startDate: '2026-01-01',
  renewalDate: '2027-01-01',
  annualPremium: { visible: true, value: 412.5 },
  paymentFrequency: 'Monthly',
  policyHolders: [{ name: 'Helen Dawson', primary: true }],
  vehicleReg: [],
  lineOfBusinessTypes: ['Home'],
  isMigrationRenewal: false,
  allowMTA: true,
  policyActions: {
    onlineMidTermAdjustment: { url: null },
    onlineViewRenewal: { enabled: false, url: null },
    bespokeRequestAChange: { url: null },
  },
  ...overrides,
});

/** `count` policies of one status, numbered from `first` (policy numbers 123X0000001, ...). */
export const policies = (count: number, status: PolicySummary['status'], first = 1): PolicySummary[] =>
  Array.from({ length: count }, (_, i) =>
    summary({
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
