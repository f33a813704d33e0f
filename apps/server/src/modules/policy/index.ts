import type { ServiceModule } from '../../platform/module';
import { policyErasure } from './erasure';
import { policyRoutes } from './policy.routes';
import { createPoliciesService, type PoliciesService } from './policy.service';

/**
 * The documents of a customer's quotes, by quote number (their summaries: id and name). The document
 * module holds them and is above this one on the map, so it is a port: this module declares what it
 * needs, the document module provides it, and the composition (modules/index.ts) joins the two.
 */
interface QuoteDocumentsPort {
  summaries(
    customerId: string,
    quoteNumbers: readonly string[],
  ): Promise<Map<string, Array<{ id: string; name: string }>>>;
}

declare module '../../platform/services' {
  interface Services {
    policies: PoliciesService;
    quoteDocuments: QuoteDocumentsPort;
  }
}

export { installPolicySystemStandIn } from './policy-system-stand-in';
/** What the policy service's `billingTerms` answers: the part of a policy a bill shows (document module). */
export type { PolicyBillingTerms } from './policy.repository';
/** What `documentTerms` answers: a policy as stored, its lines of business only when asked for (document module). */
export type { PolicyRecord as PolicyDocumentTerms } from './policy.repository';

/**
 * The policy service: policy summaries and details, quotes and agencies, for the signed-in customer;
 * other modules read policies through `services.policies`. Without a configured policy system, the
 * links into it lead to a local stand-in page (policy-system-stand-in.ts, mounted by the app).
 */
export const policyModule: ServiceModule<'quoteDocuments', 'policies'> = {
  name: 'policy',
  tables: ['policy', 'quote', 'agency', 'customer_agency'],
  uses: ['quoteDocuments'],
  provides: { policies: (ctx) => createPoliciesService(ctx) },
  async routes(app, ctx) {
    await policyRoutes(app, ctx.services.policies);
  },
  erase: policyErasure,
};
