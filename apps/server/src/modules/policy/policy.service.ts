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
import type {
  AgencyRecordInput,
  PolicyRecordInput,
  QuoteRecordInput,
} from '@portal/contracts/integration/records';
import type { Queryable } from '../../platform/db';
import type { Config } from '../../config';
import { HttpError, notFound } from '../../platform/errors';
import {
  deleteAgency,
  findAgency,
  findCustomerAgency,
  findMutualDirect,
  findMutualDirectId,
  findHeldAgencyIds,
  findPolicyAgency,
  setCustomerAgencies,
  setCustomerAgency,
  upsertAgency,
  type AgencyRecord,
} from './agency.repository';
import type { PolicyContext } from './context';
import {
  deletePolicy,
  findCustomerBillingTerms,
  findCustomerPolicy,
  findPolicyByNumber,
  findPolicyHolder,
  findPolicyHolders,
  listCustomerPolicies,
  upsertPolicies,
  upsertPolicy,
  type PolicyBillingTerms,
  type PolicyRecord,
  type PolicySummaryRecord,
} from './policy.repository';
import {
  deleteQuote,
  findCustomerQuote,
  findQuoteHolder,
  listCustomerQuotes,
  upsertQuote,
  type QuoteRecord,
} from './quote.repository';

export interface PoliciesService {
  /** The policy with that number (case and surrounding spaces ignored), or null. For registration. */
  findByNumber(policyNumber: string): Promise<PolicyRecord | null>;
  /** One page of the customer's policy summaries, grouped by status. */
  list(customerId: string, page: number): Promise<PolicyList>;
  /** One of the customer's policies with its lines of business; 404 when it is not theirs. */
  get(customerId: string, policyNumber: string): Promise<Policy>;
  /**
   * What bills say of those of the customer's policies whose numbers are given, in one read and in the order
   * asked: the others (not theirs, or no longer held) are left out.
   */
  billingTerms(customerId: string, policyNumbers: readonly string[]): Promise<PolicyBillingTerms[]>;
  /**
   * What the policy's documents say of it, with its cover (lines of business) only when `cover` is asked
   * for; 404 when it is not theirs.
   */
  documentTerms(customerId: string, policyNumber: string, cover: boolean): Promise<PolicyRecord>;
  quotes(customerId: string): Promise<Quote[]>;
  /** One of the customer's quotes as held (for its documents), or null when it is not theirs. */
  quote(customerId: string, quoteNumber: string): Promise<QuoteRecord | null>;
  /** Whether the policy is held for the customer (a document pack's list is theirs to see). */
  heldFor(customerId: string, policyNumber: string): Promise<boolean>;
  /** The customer's own agency; 404 when they have none. */
  agency(customerId: string): Promise<Agency>;
  /** The customer's agency, or the insurer's direct line when they have none. */
  agencyWithFallback(customerId: string): Promise<Agency>;
  /** The agency of one of the customer's policies; 404 when it has none or is not theirs. */
  policyAgency(customerId: string, policyNumber: string): Promise<Agency>;
  mutualDirect(): Promise<Agency>;

  /* The insurer's records, written by the integration module in its transaction. */

  agencyHeld(tx: Queryable, agencyId: string): Promise<boolean>;
  /** 422 when the record would make a second direct line. */
  upsertAgency(tx: Queryable, agencyId: string, record: AgencyRecordInput): Promise<void>;
  /** Detaches and removes the agency; false when not held. 422 for the direct line. */
  removeAgency(tx: Queryable, agencyId: string): Promise<boolean>;
  /** The customer's own agency (null: none); the agency must be held. */
  setCustomerAgency(tx: Queryable, customerId: string, agencyId: string | null): Promise<void>;
  /** Which of the agencies are held: one statement for a bulk load's batch. */
  agenciesHeld(tx: Queryable, agencyIds: readonly string[]): Promise<Set<string>>;
  /** setCustomerAgency for many customers (each at most once). */
  setCustomerAgencies(
    tx: Queryable,
    items: ReadonlyArray<{ customerId: string; agencyId: string | null }>,
  ): Promise<void>;
  /** The customer and agency must be held; 422 when the policy is held for another customer. */
  upsertPolicy(tx: Queryable, policyNumber: string, record: PolicyRecordInput, now: Date): Promise<void>;
  /**
   * upsertPolicy for many policies (each at most once; customers and agencies checked by the caller) in
   * a few statements: answers each one's refusal (422, held for another customer), or undefined for one
   * written.
   */
  upsertPolicies(
    tx: Queryable,
    items: ReadonlyArray<{ policyNumber: string; record: PolicyRecordInput }>,
    now: Date,
  ): Promise<Array<HttpError | undefined>>;
  /** The customer it was held for, or null when not held. */
  removePolicy(tx: Queryable, policyNumber: string): Promise<string | null>;
  /** The customer must be held; 422 when the quote is held for another customer. */
  upsertQuote(tx: Queryable, quoteNumber: string, record: QuoteRecordInput): Promise<void>;
  removeQuote(tx: Queryable, quoteNumber: string): Promise<string | null>;
  /** The customer a policy is held for, in the caller's transaction (it may be new in it); null when not held. */
  holderOf(tx: Queryable, policyNumber: string): Promise<string | null>;
}

/** 422: a record the integration API cannot write as it stands (the message says what to do first). */
function unprocessable(field: string, message: string): HttpError {
  return new HttpError(422, 'REFERENCE_NOT_HELD', message, { [field]: message });
}

async function refuseOtherHolder(
  tx: Queryable,
  table: 'policy' | 'quote',
  number: string,
  customerId: string,
): Promise<void> {
  const holder = await (table === 'policy' ? findPolicyHolder : findQuoteHolder)(tx, number);
  if (holder !== null && holder !== customerId) throw otherHolder(table, number);
}

/** 422: the policy or quote is held for another customer. */
function otherHolder(table: 'policy' | 'quote', number: string): HttpError {
  return unprocessable(
    'customerId',
    `${table === 'policy' ? 'Policy' : 'Quote'} ${number} is held for another customer: remove it first.`,
  );
}

/** The actions that continue in the insurer's policy system, and the names of its pages. */
export const policySystemActions = {
  'mid-term-adjustment': 'Make a change to your policy',
  'view-renewal': 'View your renewal',
  'request-a-change': 'Request a change',
  'quote-and-buy': 'Continue your quote',
} as const;
export type PolicySystemAction = keyof typeof policySystemActions;

/** Each action's page in the policy system, parsed once per configuration (see policySystemLink). */
const actionPages = new WeakMap<Config, Map<PolicySystemAction, URL>>();

/** A link into the policy system (or the local stand-in page) for one action on one policy or quote. */
function policySystemLink(config: Config, action: PolicySystemAction, reference: string): string {
  let pages = actionPages.get(config);
  if (!pages) actionPages.set(config, (pages = new Map()));
  let page = pages.get(action);
  if (!page) pages.set(action, (page = new URL(`${config.policySystemUrl}/${action}`)));
  const name = action === 'quote-and-buy' ? 'quote' : 'policy';
  // A policy or quote number (letters and digits) needs no encoding, so the link is written as it stands:
  // a list of policies makes three links a policy, and parsing a URL for each was a tenth of its time.
  if (page.search === '' && page.hash === '' && /^[A-Za-z0-9]+$/.test(reference)) {
    return `${page.href}?${name}=${reference}`;
  }
  const url = new URL(page);
  url.searchParams.set(name, reference);
  return url.href;
}

function summaryOf(config: Config, p: PolicySummaryRecord): PolicySummary {
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
    lineOfBusinessTypes: p.lineOfBusinessTypes,
    isMigrationRenewal: p.isMigrationRenewal,
    allowMTA: p.allowMTA,
    // The policy system's own link for this policy when the insurer gave one, else the configured one.
    // An ended policy cannot be changed mid-term, whatever its flag says.
    policyActions: {
      onlineMidTermAdjustment: {
        url:
          p.allowMTA && p.status !== 'Expired'
            ? (p.actionUrls.midTermAdjustment ??
              policySystemLink(config, 'mid-term-adjustment', p.policyNumber))
            : null,
      },
      onlineViewRenewal: {
        enabled: p.onlineViewRenewal,
        url: p.onlineViewRenewal
          ? (p.actionUrls.viewRenewal ?? policySystemLink(config, 'view-renewal', p.policyNumber))
          : null,
      },
      bespokeRequestAChange: {
        url: p.actionUrls.requestAChange ?? policySystemLink(config, 'request-a-change', p.policyNumber),
      },
    },
  };
}

/** A policy with its lines of business, as one policy's call answers it. */
const policyOf = (config: Config, p: PolicyRecord): Policy => ({
  ...summaryOf(config, {
    ...p,
    lineOfBusinessTypes: (p.linesOfBusiness as Array<{ type: string }>).map((l) => l.type),
  }),
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

export function createPoliciesService(ctx: PolicyContext): PoliciesService {
  const { db, config } = ctx;
  return {
    holderOf: (tx, policyNumber) => findPolicyHolder(tx, policyNumber),

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

    async billingTerms(customerId, policyNumbers) {
      const found = new Map(
        (await findCustomerBillingTerms(db, customerId, policyNumbers)).map((p) => [p.policyNumber, p]),
      );
      return policyNumbers.flatMap((n) => found.get(n) ?? []);
    },

    async documentTerms(customerId, policyNumber, cover) {
      const terms = await findCustomerPolicy(db, customerId, policyNumber, cover);
      if (!terms) throw notFound('There is no such policy.');
      return terms;
    },

    async quotes(customerId) {
      const quotes = await listCustomerQuotes(db, customerId);
      // Their documents are the document module's (through the port the composition joins).
      const documents =
        quotes.length === 0
          ? new Map<string, Array<{ id: string; name: string }>>()
          : await ctx.services.quoteDocuments.summaries(
              customerId,
              quotes.map((q) => q.quoteNumber),
            );
      return quotes.map((q) => ({
        quoteNumber: q.quoteNumber,
        productType: q.productType,
        startDate: q.startDate,
        documents: { documentSummaries: documents.get(q.quoteNumber) ?? [] },
        quoteActions: {
          onlineQuoteAndBuy: {
            enabled: q.onlineQuoteAndBuy,
            url: q.onlineQuoteAndBuy
              ? (q.quoteAndBuyUrl ?? policySystemLink(config, 'quote-and-buy', q.quoteNumber))
              : null,
          },
        },
      }));
    },

    quote: (customerId, quoteNumber) => findCustomerQuote(db, customerId, quoteNumber),
    heldFor: async (customerId, policyNumber) => (await findPolicyHolder(db, policyNumber)) === customerId,

    agency: async (customerId) => agencyOrNotFound(await findCustomerAgency(db, customerId)),
    agencyWithFallback: async (customerId) =>
      agencyOrNotFound((await findCustomerAgency(db, customerId)) ?? (await findMutualDirect(db))),
    policyAgency: async (customerId, policyNumber) =>
      agencyOrNotFound(await findPolicyAgency(db, customerId, policyNumber)),
    mutualDirect: async () => agencyOrNotFound(await findMutualDirect(db)),

    agencyHeld: async (tx, agencyId) => (await findAgency(tx, agencyId)) !== null,

    async upsertAgency(tx, agencyId, record) {
      const direct = record.isMutualDirect ? await findMutualDirectId(tx) : null;
      if (direct !== null && direct !== agencyId) {
        throw unprocessable(
          'isMutualDirect',
          `Agency ${direct} is the direct line: load it with isMutualDirect false first.`,
        );
      }
      await upsertAgency(tx, agencyId, record);
    },

    async removeAgency(tx, agencyId) {
      const held = await findAgency(tx, agencyId);
      if (!held) return false;
      if (held.isMutualDirect) {
        throw unprocessable(
          'agencyId',
          'The direct line cannot be removed: customers without an agency fall back to it.',
        );
      }
      return deleteAgency(tx, agencyId);
    },

    setCustomerAgency: (tx, customerId, agencyId) => setCustomerAgency(tx, customerId, agencyId),
    agenciesHeld: (tx, agencyIds) => findHeldAgencyIds(tx, agencyIds),
    setCustomerAgencies: (tx, items) => setCustomerAgencies(tx, items),

    async upsertPolicies(tx, items, now) {
      const holders = await findPolicyHolders(
        tx,
        items.map((i) => i.policyNumber),
      );
      const refusals = items.map(({ policyNumber, record }) => {
        const holder = holders.get(policyNumber);
        return holder !== undefined && holder !== record.customerId
          ? otherHolder('policy', policyNumber)
          : undefined;
      });
      await upsertPolicies(
        tx,
        items.filter((_, i) => refusals[i] === undefined),
        now,
      );
      return refusals;
    },

    async upsertPolicy(tx, policyNumber, record, now) {
      await refuseOtherHolder(tx, 'policy', policyNumber, record.customerId);
      await upsertPolicy(tx, policyNumber, record, now);
    },
    removePolicy: (tx, policyNumber) => deletePolicy(tx, policyNumber),

    async upsertQuote(tx, quoteNumber, record) {
      await refuseOtherHolder(tx, 'quote', quoteNumber, record.customerId);
      await upsertQuote(tx, quoteNumber, record);
    },
    removeQuote: (tx, quoteNumber) => deleteQuote(tx, quoteNumber),
  };
}
