import type { ModuleContext, ServiceModule } from '../platform/module';
import type { Services } from '../platform/services';
import { accountModule, createCustomersService } from './account';
import { contentModule, createContentService } from './content';
import { createDocumentRecordsService, documentModule } from './document';
import { eventlogModule } from './eventlog';
import { createIdentity, identityModule } from './identity';
import { createIntegration, integrationModule } from './integration';
import { createOidcService, oidcModule } from './oidc';
import { createPoliciesService, policyModule } from './policy';
import { portalModule } from './portal';
import { createRegistrationService, registrationModule } from './registration';

/**
 * Every service module, in mounting and seeding order. Each is mounted under the path of its configured
 * base URL. Add a module with one import and one entry here.
 */
export const modules: ServiceModule[] = [
  // Content first: it has no dependencies, and other modules read settings (password rules) from it.
  contentModule,
  // Customers before policies (policies reference them) and before identity (users link to customers).
  accountModule,
  // Identity after customers (its seed links users to them), then registration (it uses identity).
  identityModule,
  registrationModule,
  policyModule,
  documentModule,
  eventlogModule,
  // The password change: after identity and the OpenID provider's tables it uses.
  portalModule,
  // OpenID Connect: after identity (it redeems identity's sessionTokens), mounted under the identity URL.
  oidcModule,
  // The insurer's systems of record: writes through every module above.
  integrationModule,
];

/**
 * Builds every module's service object into ctx.services (the same object every module holds), in an
 * order where a service only uses those built before it.
 */
export async function createServices(ctx: ModuleContext): Promise<Services> {
  const services = ctx.services as unknown as Record<string, unknown>;
  void services;
  ctx.services.content = createContentService(ctx);
  ctx.services.customers = createCustomersService(ctx.db, ctx.clock, ctx.services);
  ctx.services.identity = createIdentity(ctx);
  ctx.services.registration = createRegistrationService(ctx);
  ctx.services.policies = createPoliciesService(ctx.db, ctx.config);
  ctx.services.oidc = createOidcService(ctx);
  ctx.services.documents = createDocumentRecordsService(ctx);
  createIntegration(ctx);
  return ctx.services;
}
