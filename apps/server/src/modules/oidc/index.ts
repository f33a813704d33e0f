import { DATABASE_RETRY_AFTER_SECONDS, DatabaseUnavailableError } from '../../platform/db';
import type { ServiceModule } from '../../platform/module';
import { mountProvider } from './mount';
import { oktaNotFound } from './okta-not-found';
import { createOidcService, type OidcService } from './oidc.service';
import { purgeExpired } from './oidc.repository';
import { createProvider } from './provider';
import { oidcErasure } from './erasure';
import { oidcHousekeeping } from './housekeeping';
import { oidcRevocations } from './revocations';
import { sessionRoutes } from './sessions.routes';
import { endOtherSessions } from './sign-in-sessions';

declare module '../../platform/services' {
  interface Services {
    oidc: OidcService;
  }
}

/**
 * OpenID Connect for the portal, mounted under the identity base URL beside the Okta-style authn API:
 * the provider at {identity}/oauth2/default (discovery, /v1/authorize, /v1/token, /v1/keys, /v1/logout,
 * /v1/revoke, /v1/introspect, /v1/userinfo), Okta's /api/v1/sessions/me and Okta's answers to unknown
 * paths under /api/v1. See docs/decisions/005-openid-connect.md and 013-okta-compatibility.md.
 */
export const oidcModule: ServiceModule<'identity', 'oidc' | 'sessions'> = {
  name: 'oidc',
  // One service to the outside with the identity module: mounted under its base URL, on with it.
  service: 'identity',
  tables: ['oidc_payload', 'oidc_key_material', 'portal_sign_in_session', 'portal_known_browser'],
  uses: ['identity'],
  provides: {
    oidc: (ctx) => createOidcService(ctx),
    // A reset in the identity module (below) ends every other sign-in through this.
    sessions: () => ({ endOthers: endOtherSessions }),
  },
  erase: oidcErasure,
  housekeeping: oidcHousekeeping,
  revocations: oidcRevocations,
  async routes(app, ctx) {
    const keys = await ctx.services.oidc.keys();
    await purgeExpired(ctx.db, ctx.clock.now());
    const provider = createProvider(ctx, keys);
    // The provider answers any failure of its own storage as 500 server_error; a database that is down or
    // frozen is a 503 with Retry-After instead, as on every other path (the client should come back).
    const unavailable = new WeakSet<object>();
    provider.on('server_error', (kctx, error) => {
      if (error instanceof DatabaseUnavailableError) unavailable.add(kctx);
      else app.log.error({ err: error }, 'openid provider error');
    });
    provider.use(async (kctx, next) => {
      await next();
      if (!unavailable.has(kctx)) return;
      app.log.warn('openid provider: the database is unavailable');
      kctx.status = 503;
      kctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      kctx.set('Cache-Control', 'no-store');
      kctx.type = 'application/json';
      kctx.body = {
        error: 'temporarily_unavailable',
        error_description: 'The service is temporarily unavailable. Please try again shortly.',
      };
    });
    await mountProvider(app, ctx, provider);
    await sessionRoutes(app, ctx, provider);
    await oktaNotFound(app, ctx);
  },
  // Keys are generated on first use when not configured; doing it at seed time gives every test copy of
  // the seeded database the same keys, as instances sharing one database share them.
  async seed(ctx) {
    await ctx.services.oidc.keys();
  },
};

/** What housekeeping deletes of this module's tables (the composition names every kind). */
export { oidcHousekeeping };
