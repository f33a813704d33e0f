import type { Policy, PolicySummary } from '@portal/contracts/policy';

/** A policy summary as the policy service lists it, for the dashboard's and the policy pages' tests. */
export const testPolicySummary = (overrides: Partial<PolicySummary> = {}): PolicySummary => ({
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

/** One policy as the policy service answers it: the summary with its policy-system links and its cover. */
export const testPolicy = (overrides: Partial<Policy> = {}): Policy => ({
  ...testPolicySummary({
    policyActions: {
      onlineMidTermAdjustment: { url: 'https://policy.example/mta?policy=123X4567890' },
      onlineViewRenewal: { enabled: false, url: null },
      bespokeRequestAChange: { url: 'https://policy.example/request-a-change?policy=123X4567890' },
    },
  }),
  linesOfBusiness: [
    {
      type: 'Home',
      coverLevel: 'Buildings and contents',
      risks: [{ displayName: 'Main home', registration: null, covers: [{ type: 'Buildings' }] }],
      valuables: [],
      bicycles: [],
    },
  ],
  ...overrides,
});
