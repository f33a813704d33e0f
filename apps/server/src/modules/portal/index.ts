import { closeCounterStore } from '../../platform/counters';
import type { ServiceModule } from '../../platform/module';
import { createContactChangesService } from './contact-changes.service';
import { createPasswordChangeService } from './password-change.service';
import { createPortalService, type PortalService } from './portal.service';
import { activityRoutes } from './activity.routes';
import { portalRoutes } from './portal.routes';
import { portalHousekeeping, createReauthentication } from './reauthentication';
import { createSignInSessionsService } from './sign-in-sessions.service';
import { sharedViewRoutes } from './shared-view.routes';
import { createSharedViewService, sharedViewHousekeeping } from './shared-view.service';

/** What housekeeping deletes of this module's tables: expired re-authentications, share codes and views. */
const everyPortalHousekeeping = [...portalHousekeeping, ...sharedViewHousekeeping] as const;

declare module '../../platform/services' {
  interface Services {
    portal: PortalService;
  }
}

/**
 * The portal service: one-time codes for profile changes and the password change from the profile pages,
 * on top of services.identity (codes, passwords, lockout) and the OpenID provider's stored sessions; for
 * the contact centre above it (services.portal), a customer's activity and the changes made for them.
 */
export const portalModule: ServiceModule<'customers' | 'identity' | 'oidc' | 'content', 'portal'> = {
  name: 'portal',
  tables: ['portal_reauthentication', 'portal_share_code', 'portal_shared_view'],
  uses: ['customers', 'identity', 'oidc', 'content'],
  provides: { portal: (ctx) => createPortalService(ctx) },
  housekeeping: everyPortalHousekeeping,
  // The customer's share code and the contact centre's views of their account (who, why) go with them.
  erase: () => ({
    async erase(tx, customerId) {
      const codes = await tx.query('DELETE FROM portal_share_code WHERE customer_id = $1', [customerId]);
      const views = await tx.query('DELETE FROM portal_shared_view WHERE customer_id = $1', [customerId]);
      return { shareCodes: codes.rowCount, sharedViews: views.rowCount };
    },
  }),
  async routes(app, ctx) {
    app.addHook('onClose', async () => closeCounterStore(ctx));
    await portalRoutes(
      app,
      createPasswordChangeService(ctx),
      ctx.services.identity,
      createReauthentication(ctx),
      createContactChangesService(ctx),
      createSignInSessionsService(ctx),
    );
    await activityRoutes(app, ctx);
    await sharedViewRoutes(app, createSharedViewService(ctx));
  },
};

/** What housekeeping deletes of this module's tables (the composition names every kind). */
export { everyPortalHousekeeping as portalHousekeeping };
