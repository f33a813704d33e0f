import { demoCustomers } from '../../db/demo-customers';
import type { ServiceModule } from '../../platform/module';
import { createPoliciesService, seedPolicies, type PoliciesService } from './policy.service';

declare module '../../platform/services' {
  interface Services {
    policies: PoliciesService;
  }
}

export { createPoliciesService };
export type { PoliciesService, PolicyRecord, PolicyStatus } from './policy.service';

/**
 * Policy records. The policy data area (summaries, one policy, cover) is a later piece of work; for now
 * the module holds the records and exposes them to other modules through `services.policies`.
 */
export const policyModule: ServiceModule = {
  name: 'policy',
  async routes() {
    // No HTTP routes yet: the policy data area adds them.
  },
  seed: (ctx) => ctx.db.transaction((tx) => seedPolicies(tx, ctx.clock)),
  seedInputs: () => demoCustomers,
};
