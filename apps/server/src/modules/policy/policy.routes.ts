import type { FastifyInstance } from 'fastify';
import {
  getAgencyCall,
  getAgencyWithFallbackCall,
  getMutualDirectAgencyCall,
  getPolicyAgencyCall,
  getPolicyCall,
  listPoliciesCall,
  listQuotesCall,
} from '@portal/contracts/policy';
import { route } from '../../platform/route';
import type { PoliciesService } from './policy.service';

/** The policy service: policies, quotes and agencies of the signed-in customer (spec customer-data §7). */
export async function policyRoutes(app: FastifyInstance, policies: PoliciesService) {
  // Customer data is never kept by a browser or a proxy: every answer here takes the platform's default,
  // Cache-Control: no-store (platform/security.ts).
  route(app, listPoliciesCall, ({ params, query }) => policies.list(params.customerId, query.page));
  route(app, getPolicyCall, ({ params }) => policies.get(params.customerId, params.policyId));
  route(app, listQuotesCall, ({ params }) => policies.quotes(params.customerId));
  // Static paths before the parameterised one: mutual-direct and fallback are not customer or policy ids.
  route(app, getMutualDirectAgencyCall, () => policies.mutualDirect());
  route(app, getAgencyCall, ({ params }) => policies.agency(params.customerId));
  route(app, getAgencyWithFallbackCall, ({ params }) => policies.agencyWithFallback(params.customerId));
  route(app, getPolicyAgencyCall, ({ params }) => policies.policyAgency(params.customerId, params.policyId));
}
