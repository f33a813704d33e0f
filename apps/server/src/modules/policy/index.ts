import { demoCustomers } from '../../db/demo-customers';
import type { ServiceModule } from '../../platform/module';
import { policyRoutes } from './policy.routes';
import { createPoliciesService, seedPolicies, type PoliciesService } from './policy.service';

declare module '../../platform/services' {
  interface Services {
    policies: PoliciesService;
  }
}

export { createPoliciesService };
export { policySystemActions, type PolicySystemAction } from './policy.service';
/** What the policy service's `billingTerms` answers: the part of a policy a bill shows (document module). */
export type { PolicyBillingTerms } from './policy.repository';
/** What `documentTerms` answers: a policy as stored, its lines of business only when asked for (document module). */
export type { PolicyRecord as PolicyDocumentTerms } from './policy.repository';

/**
 * The policy service: policy summaries and details, quotes and agencies, for the signed-in customer;
 * other modules read policies through `services.policies`. Without a configured policy system, the
 * links into it lead to a local stand-in page.
 */
export const policyModule: ServiceModule = {
  name: 'policy',
  async routes(app, ctx) {
    await policyRoutes(app, ctx.services.policies);
  },
  seed: seedPolicies,
  // The demo dates move with today: a new day seeds again.
  seedInputs: () => ({ demoCustomers, today: new Date().toISOString().slice(0, 10) }),
  seedVersion: 3,
};
