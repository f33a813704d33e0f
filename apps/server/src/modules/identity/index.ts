import { closeCounterStore } from '../../platform/counters';
import type { ServiceModule } from '../../platform/module';
import { authnRoutes } from './authn.routes';
import { createAuthn } from './authn.service';
import { identityErasure } from './erasure';
import { identityHousekeeping } from './housekeeping';
import { createIdentityService, type IdentityService } from './identity.service';

declare module '../../platform/services' {
  interface Services {
    identity: IdentityService;
  }
}

export type { IdentityService, RequestMeta } from './identity.service';
export { isMobileNumber, maskPhone } from './phone';
export { newDeviceEmail } from './emails';

/**
 * The identity service: Okta's classic Authentication API (sign-in, activation, recovery, one-time codes
 * by text or voice call, lockout) over the identity base URL. The OpenID Connect provider is the oidc
 * module, above this one; it redeems this module's sessionTokens through services.identity.
 */
export const identityModule: ServiceModule<'content' | 'sessions', 'identity'> = {
  name: 'identity',
  tables: [
    'identity_user',
    'identity_factor',
    'identity_transaction',
    'identity_code',
    'identity_session_token',
    'identity_link_token',
    'identity_authenticator',
    'identity_backup_code',
    'identity_webauthn_challenge',
    'identity_passkey_offer',
    'identity_contact_change',
  ],
  uses: ['content', 'sessions'],
  provides: { identity: (ctx) => createIdentityService(ctx) },
  async routes(app, ctx) {
    app.addHook('onClose', async () => closeCounterStore(ctx));
    const authn = createAuthn(ctx);
    await app.register(async (scoped) => authnRoutes(scoped, ctx, authn, ctx.services.identity));
  },
  erase: identityErasure,
  housekeeping: identityHousekeeping,
};

/** What housekeeping deletes of this module's tables (the composition names every kind). */
export { identityHousekeeping };
