import { z } from 'zod/mini';
import { defineCall, named } from './call';
import {
  customerCallErrors,
  customerIdValue,
  externalUrl,
  isoDate,
  money,
  opaqueId,
  pageNumber,
} from './common';

/**
 * Policy service: policies, quotes and agency (spec customer-data §3, §7). Every customer call needs the
 * bearer token and answers 404 when the path's customer id is not the token's, or the policy is not theirs.
 */

// The policy number rule is one of the field rules (fields.ts), shared with the web forms.
export { policyNumber, policyNumberInput } from './fields';
import { policyNumber } from './fields';
export type PolicyNumber = z.infer<typeof policyNumber>;

export const policyStatuses = ['Active', 'Upcoming', 'Expired', 'RenewalCustomerReady', 'Renewing'] as const;
export const policyStatus = z.enum(policyStatuses);
export type PolicyStatus = z.infer<typeof policyStatus>;

/** The insurer's product codes look like PHL, MPC, NGH. */
export const productCode = z
  .string()
  .check(z.regex(/^[A-Z0-9]{2,10}$/, 'Expected a product code such as PHL'));

const label = z.string().check(z.minLength(1), z.maxLength(200));
const optionalLabel = z.nullable(z.string().check(z.maxLength(200)));
const amount = z.nullable(z.number().check(z.minimum(0)));

export const policyHolder = z.object({
  name: label,
  /** The primary policy holder shown on the policy details block; exactly one per policy. */
  primary: z.boolean(),
});

export const policyActions = named(
  z.object({
    /** Make a change online in the policy system; null when not offered. */
    onlineMidTermAdjustment: z.object({ url: z.nullable(externalUrl) }),
    /** View the renewal online; the button is disabled unless `enabled` is true. */
    onlineViewRenewal: z.object({ enabled: z.boolean(), url: z.nullable(externalUrl) }),
    bespokeRequestAChange: z.object({ url: z.nullable(externalUrl) }),
  }),
  'PolicyActions',
);

export const cover = z.object({ type: label });

export const risk = z.object({
  displayName: label,
  /** A vehicle registration for motor risks, otherwise null. */
  registration: optionalLabel,
  covers: z.array(cover),
});

/** Spec §3 Valuables: one item (or collection) on a valuables or fine art line. */
export const valuable = named(
  z.object({
    category: label,
    description: z.string().check(z.maxLength(500)),
    value: money,
    replacementCost: amount,
    type: optionalLabel,
    make: optionalLabel,
    /** Unknown art types are labelled "Unspecified Other Fine Art" by the SPA. */
    artType: optionalLabel,
    collectionType: optionalLabel,
    singleItemLimit: amount,
    sumInsured: amount,
  }),
  'Valuable',
);
export type Valuable = z.infer<typeof valuable>;

export const bicycle = named(
  z.object({ description: z.string().check(z.maxLength(500)), value: money }),
  'Bicycle',
);
export type Bicycle = z.infer<typeof bicycle>;

/**
 * Spec §3 Line of business. `valuables` and `bicycles` are where the spec's Valuables and Bicycles sit:
 * empty for lines that have none. The SPA shows at most 20 of each.
 */
export const lineOfBusiness = named(
  z.object({
    /** e.g. Home, Valuables, FineArt, Motor, LegalExpenses; the Home line is sorted first by the SPA. */
    type: label,
    coverLevel: optionalLabel,
    risks: z.array(risk),
    valuables: z.array(valuable),
    bicycles: z.array(bicycle),
  }),
  'LineOfBusiness',
);
export type LineOfBusiness = z.infer<typeof lineOfBusiness>;

const policyFields = {
  policyNumber,
  productName: label,
  /** Product code: PHL, PAH, PHR, NGH, NGB and MPC get special cover labels. */
  productType: productCode,
  /** The product as the policy system's API names it, e.g. home, motor, legalExpenses, travelLegacy. */
  apiProductType: label,
  /** Display name of the policy type, e.g. "Home Insurance". */
  policyType: label,
  status: policyStatus,
  startDate: isoDate,
  /** Expiry, which is the renewal date. */
  renewalDate: isoDate,
  /** value 0 makes the SPA show "Refer to your policy document". */
  annualPremium: money,
  paymentFrequency: z.enum(['Annual', 'Monthly']),
  policyHolders: z.array(policyHolder),
  /** Registrations of the vehicles covered; empty for non-motor policies. */
  vehicleReg: z.array(z.string().check(z.minLength(1), z.maxLength(10))),
  lineOfBusinessTypes: z.array(label),
  isMigrationRenewal: z.boolean(),
  allowMTA: z.boolean(),
  policyActions,
};

/** What the lists need: a policy without its lines of business. */
export const policySummary = named(z.object(policyFields), 'PolicySummary');
export type PolicySummary = z.infer<typeof policySummary>;

/** One policy with everything the policy, cover and documents pages show. */
export const policy = named(
  z.object({ ...policyFields, linesOfBusiness: z.array(lineOfBusiness) }),
  'Policy',
);
export type Policy = z.infer<typeof policy>;

/** Which statuses belong in which group of the policy list. */
export const policyGroupStatuses = {
  active: ['Active'],
  renewing: ['Renewing', 'RenewalCustomerReady'],
  upcoming: ['Upcoming'],
  expired: ['Expired'],
} as const satisfies Record<string, readonly PolicyStatus[]>;
export type PolicyGroup = keyof typeof policyGroupStatuses;

/** Policies per page of the policy list (all groups together). */
export const POLICY_PAGE_SIZE = 50;

/**
 * GET /policy/:customerId?page — the spec's "policies (grouped active, renewing, expired, upcoming)".
 * Renewing policies are in force too: the Active tab shows active and renewing, the renewals grid
 * renewing. Paging runs over all of the customer's policies together (POLICY_PAGE_SIZE a page, newest
 * start date first) and each page is then grouped by status.
 */
export const policyList = named(
  z
    .object({
      active: z.array(policySummary),
      renewing: z.array(policySummary),
      upcoming: z.array(policySummary),
      expired: z.array(policySummary),
      currentPage: z.number().check(z.int(), z.minimum(1)),
      lastPage: z.number().check(z.int(), z.minimum(1)),
      totalRecords: z.number().check(z.int(), z.minimum(0)),
    })
    .check(
      z.superRefine((list, ctx) => {
        for (const group of Object.keys(policyGroupStatuses) as PolicyGroup[]) {
          const allowed: readonly PolicyStatus[] = policyGroupStatuses[group];
          list[group].forEach((p, i) => {
            if (!allowed.includes(p.status)) {
              ctx.addIssue({
                code: 'custom',
                path: [group, i, 'status'],
                message: `A ${p.status} policy does not belong in ${group}`,
              });
            }
          });
        }
      }),
    ),
  'PolicyList',
);
export type PolicyList = z.infer<typeof policyList>;

export const policyListQuery = z.object({ page: z._default(pageNumber, 1) });

export const customerPolicyParams = z.strictObject({ customerId: customerIdValue, policyId: policyNumber });

export const quote = named(
  z.object({
    /** Quote numbers follow the policy number rule (three digits, Q, eight digits for a quote). */
    quoteNumber: policyNumber,
    productType: productCode,
    startDate: isoDate,
    documents: z.object({
      documentSummaries: z.array(z.object({ id: opaqueId, name: label })),
    }),
    quoteActions: z.object({
      /** Continue online; the button is disabled unless `enabled` is true. */
      onlineQuoteAndBuy: z.object({ enabled: z.boolean(), url: z.nullable(externalUrl) }),
    }),
  }),
  'Quote',
);
export type Quote = z.infer<typeof quote>;

/** The customer's active quotes; empty when none (the SPA shows the no-quotes block). */
export const quoteList = named(z.array(quote), 'QuoteList');

const clockTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected HH:MM'));

export const agency = named(
  z.object({
    name: label,
    url: z.nullable(externalUrl),
    telephoneNumber: z.string().check(z.minLength(1), z.maxLength(30)),
    /** The agency's office address on one line, parts joined with ", ". */
    address: z.string().check(z.maxLength(300)),
    /** For the maps link. */
    latitude: z.number().check(z.minimum(-90), z.maximum(90)),
    longitude: z.number().check(z.minimum(-180), z.maximum(180)),
    /** Opening hours of the direct telephone line (HH:MM, UK time); null for agencies without one. */
    mutualDirectTelephonesOpen: z.nullable(clockTime),
    mutualDirectTelephonesClose: z.nullable(clockTime),
  }),
  'Agency',
);
export type Agency = z.infer<typeof agency>;

export const listPoliciesCall = defineCall({
  id: 'policy.list',
  summary:
    "The customer's policy summaries grouped active, renewing, upcoming and expired, one page at a time. 404 when the customer id is not the token's.",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/policy/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  query: policyListQuery,
  responses: { 200: policyList, ...customerCallErrors },
});

export const getPolicyCall = defineCall({
  id: 'policy.get',
  summary:
    "One policy with its lines of business, risks, covers, valuables and bicycles. 404 when the policy is not the customer's or the customer id is not the token's.",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/policy/:customerId/:policyId',
  auth: true,
  params: customerPolicyParams,
  responses: { 200: policy, ...customerCallErrors },
});

export const listQuotesCall = defineCall({
  id: 'policy.quotes',
  summary: "The customer's active quotes (possibly none). 404 when the customer id is not the token's.",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/quote/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: quoteList, ...customerCallErrors },
});

export const getAgencyCall = defineCall({
  id: 'policy.agency',
  summary:
    "The customer's own agency. 404 when they have none (the SPA then holds null) or the customer id is not the token's.",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/agency/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: agency, ...customerCallErrors },
});

export const getAgencyWithFallbackCall = defineCall({
  id: 'policy.agencyFallback',
  summary:
    "The customer's agency, or the insurer's direct line (mutual direct) when they have none. 404 only when the customer id is not the token's.",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/agency/:customerId/fallback',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: agency, ...customerCallErrors },
});

export const getPolicyAgencyCall = defineCall({
  id: 'policy.agencyForPolicy',
  summary:
    "The agency that looks after one policy. 404 when the policy has none, is not the customer's, or the customer id is not the token's.",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/agency/:customerId/:policyId',
  auth: true,
  params: customerPolicyParams,
  responses: { 200: agency, ...customerCallErrors },
});

export const getMutualDirectAgencyCall = defineCall({
  id: 'policy.agencyMutualDirect',
  summary:
    "The insurer's direct line (mutual direct) with its telephone opening hours. Not customer data, so no token is needed (the SPA may still send one).",
  service: 'policy',
  method: 'GET',
  path: '/api/v1/agency/mutual-direct',
  auth: false,
  responses: { 200: agency },
});
