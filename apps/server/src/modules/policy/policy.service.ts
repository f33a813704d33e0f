import {
  POLICY_PAGE_SIZE,
  policyGroupStatuses,
  type Agency,
  type Policy,
  type PolicyGroup,
  type PolicyList,
  type PolicySummary,
  type Quote,
} from '@portal/contracts/policy';
import type { Db, Queryable } from '../../platform/db';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../config';
import { notFound } from '../../platform/errors';
import { demoPortfolio } from '../../db/demo-portfolio';
import {
  findCustomerAgency,
  findCustomerPolicies,
  findCustomerPolicy,
  findMutualDirect,
  findPolicyAgency,
  findPolicyByNumber,
  listCustomerPolicies,
  listCustomerQuotes,
  setCustomerAgency,
  upsertAgency,
  upsertDemoPolicy,
  upsertDemoQuote,
  type AgencyRecord,
  type PolicyRecord,
} from './policy.repository';

export interface PoliciesService {
  /** The policy with that number (case and surrounding spaces ignored), or null. For registration. */
  findByNumber(policyNumber: string): Promise<PolicyRecord | null>;
  /** One page of the customer's policy summaries, grouped by status. */
  list(customerId: string, page: number): Promise<PolicyList>;
  /** One of the customer's policies with its lines of business; 404 when it is not theirs. */
  get(customerId: string, policyNumber: string): Promise<Policy>;
  /** Several of the customer's policies in one read, in the order asked; 404 when one is not theirs. */
  getMany(customerId: string, policyNumbers: readonly string[]): Promise<Policy[]>;
  quotes(customerId: string): Promise<Quote[]>;
  /** The customer's own agency; 404 when they have none. */
  agency(customerId: string): Promise<Agency>;
  /** The customer's agency, or the insurer's direct line when they have none. */
  agencyWithFallback(customerId: string): Promise<Agency>;
  /** The agency of one of the customer's policies; 404 when it has none or is not theirs. */
  policyAgency(customerId: string, policyNumber: string): Promise<Agency>;
  mutualDirect(): Promise<Agency>;
}

/** The actions that continue in the insurer's policy system, and the names of its pages. */
export const policySystemActions = {
  'mid-term-adjustment': 'Make a change to your policy',
  'view-renewal': 'View your renewal',
  'request-a-change': 'Request a change',
  'quote-and-buy': 'Continue your quote',
} as const;
export type PolicySystemAction = keyof typeof policySystemActions;

/** A link into the policy system (or the local stand-in page) for one action on one policy or quote. */
function policySystemLink(config: Config, action: PolicySystemAction, reference: string): string {
  const url = new URL(`${config.policySystemUrl}/${action}`);
  url.searchParams.set(action === 'quote-and-buy' ? 'quote' : 'policy', reference);
  return url.href;
}

function summaryOf(config: Config, p: PolicyRecord): PolicySummary {
  return {
    policyNumber: p.policyNumber,
    productName: p.productName,
    productType: p.productType,
    apiProductType: p.apiProductType,
    policyType: p.policyType,
    status: p.status,
    startDate: p.startDate,
    renewalDate: p.renewalDate,
    annualPremium: { visible: p.premiumVisible, value: p.annualPremium },
    paymentFrequency: p.paymentFrequency === 'Monthly' ? 'Monthly' : 'Annual',
    policyHolders: p.policyHolders,
    vehicleReg: p.vehicleReg,
    lineOfBusinessTypes: (p.linesOfBusiness as Array<{ type: string }>).map((l) => l.type),
    isMigrationRenewal: p.isMigrationRenewal,
    allowMTA: p.allowMTA,
    policyActions: {
      onlineMidTermAdjustment: {
        url: p.allowMTA ? policySystemLink(config, 'mid-term-adjustment', p.policyNumber) : null,
      },
      onlineViewRenewal: {
        enabled: p.onlineViewRenewal,
        url: p.onlineViewRenewal ? policySystemLink(config, 'view-renewal', p.policyNumber) : null,
      },
      bespokeRequestAChange: { url: policySystemLink(config, 'request-a-change', p.policyNumber) },
    },
  };
}

/** A policy with its lines of business, as one policy's call answers it. */
const policyOf = (config: Config, p: PolicyRecord): Policy => ({
  ...summaryOf(config, p),
  linesOfBusiness: p.linesOfBusiness as Policy['linesOfBusiness'],
});

const groupOf = (status: PolicyRecord['status']): PolicyGroup =>
  (Object.keys(policyGroupStatuses) as PolicyGroup[]).find((g) =>
    (policyGroupStatuses[g] as readonly string[]).includes(status),
  )!;

function agencyOrNotFound(agency: AgencyRecord | null): Agency {
  if (!agency) throw notFound('There is no agency for that.');
  return agency;
}

export function createPoliciesService(db: Db, config: Config): PoliciesService {
  return {
    async findByNumber(policyNumber) {
      const normalised = policyNumber.trim().toUpperCase();
      if (normalised === '' || normalised.length > 20) return null;
      return findPolicyByNumber(db, normalised);
    },

    async list(customerId, page) {
      const { policies, total } = await listCustomerPolicies(db, customerId, page, POLICY_PAGE_SIZE);
      const list: PolicyList = {
        active: [],
        renewing: [],
        upcoming: [],
        expired: [],
        currentPage: page,
        lastPage: Math.max(1, Math.ceil(total / POLICY_PAGE_SIZE)),
        totalRecords: total,
      };
      // A summary carries its line-of-business types (the renewals grid shows them), not the lines.
      for (const p of policies) list[groupOf(p.status)].push(summaryOf(config, p));
      return list;
    },

    async get(customerId, policyNumber) {
      const p = await findCustomerPolicy(db, customerId, policyNumber);
      if (!p) throw notFound('There is no such policy.');
      return policyOf(config, p);
    },

    async getMany(customerId, policyNumbers) {
      const found = new Map(
        (await findCustomerPolicies(db, customerId, policyNumbers)).map((p) => [p.policyNumber, p]),
      );
      return policyNumbers.map((n) => {
        const p = found.get(n);
        if (!p) throw notFound('There is no such policy.');
        return policyOf(config, p);
      });
    },

    async quotes(customerId) {
      const quotes = await listCustomerQuotes(db, customerId);
      return quotes.map((q) => ({
        quoteNumber: q.quoteNumber,
        productType: q.productType,
        startDate: q.startDate,
        documents: { documentSummaries: q.documents },
        quoteActions: {
          onlineQuoteAndBuy: {
            enabled: q.onlineQuoteAndBuy,
            url: q.onlineQuoteAndBuy ? policySystemLink(config, 'quote-and-buy', q.quoteNumber) : null,
          },
        },
      }));
    },

    agency: async (customerId) => agencyOrNotFound(await findCustomerAgency(db, customerId)),
    agencyWithFallback: async (customerId) =>
      agencyOrNotFound((await findCustomerAgency(db, customerId)) ?? (await findMutualDirect(db))),
    policyAgency: async (customerId, policyNumber) =>
      agencyOrNotFound(await findPolicyAgency(db, customerId, policyNumber)),
    mutualDirect: async () => agencyOrNotFound(await findMutualDirect(db)),
  };
}

/** Loads the demo policies, quotes and agencies, dated from the seed's today. After the account seed. */
export async function seedPolicies(q: Queryable, clock: Clock): Promise<void> {
  const now = clock.now();
  const portfolio = demoPortfolio(now);
  for (const agency of portfolio.agencies) await upsertAgency(q, agency);
  for (const customer of portfolio.customers) {
    await setCustomerAgency(q, customer.customerId, customer.agencyId);
    for (const policy of customer.policies) await upsertDemoPolicy(q, customer.customerId, policy, now);
    for (const quote of customer.quotes) await upsertDemoQuote(q, customer.customerId, quote);
  }
}
