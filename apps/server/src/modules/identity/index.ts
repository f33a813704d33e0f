import { demoCustomers } from '../../db/demo-customers';
import { closeCounterStore } from '../../platform/counters';
import type { ModuleContext, ServiceModule } from '../../platform/module';
import { authnRoutes } from './authn.routes';
import { createAuthn } from './authn.service';
import { createIdentityService, type IdentityService } from './identity.service';
import { seedIdentity } from './seed';

declare module '../../platform/services' {
  interface Services {
    identity: IdentityService;
  }
}

export type { IdentityService, RequestMeta } from './identity.service';

/** Builds ctx.services.identity (after customers and content, which it reads). */
export function createIdentity(ctx: ModuleContext): IdentityService {
  return createIdentityService(ctx);
}

/**
 * The identity service: Okta's classic Authentication API (sign-in, activation, recovery, one-time codes
 * by text or voice call, lockout) over the identity base URL. The OpenID Connect provider is the oidc
 * module; it redeems this module's sessionTokens through services.identity.consumeSessionToken.
 */
export const identityModule: ServiceModule = {
  name: 'identity',
  async routes(app, ctx) {
    app.addHook('onClose', async () => closeCounterStore(ctx));
    const authn = createAuthn(ctx);
    await app.register(async (scoped) => authnRoutes(scoped, ctx, authn, ctx.services.identity));
  },
  seed: seedIdentity,
  seedInputs: () => demoCustomers,
};
