import { closeCounterStore } from '../../platform/counters';
import type { ServiceModule } from '../../platform/module';
import { createPasswordChangeService } from './password-change.service';
import { portalRoutes } from './portal.routes';
import { createReauthentication } from './reauthentication';
import { createSignInSessionsService } from './sign-in-sessions.service';

/**
 * The portal service: one-time codes for profile changes and the password change from the profile pages,
 * on top of services.identity (codes, passwords, lockout) and the OpenID provider's stored sessions.
 */
export const portalModule: ServiceModule = {
  name: 'portal',
  async routes(app, ctx) {
    app.addHook('onClose', async () => closeCounterStore(ctx));
    await portalRoutes(
      app,
      createPasswordChangeService(ctx),
      ctx.services.identity,
      createReauthentication(ctx),
      createSignInSessionsService(ctx),
    );
  },
};
