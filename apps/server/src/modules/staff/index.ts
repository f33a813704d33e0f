import type { ServiceModule } from '../../platform/module';
import { provideStaffSessions } from '../../platform/staff-guard';
import { contentRoutes } from './content.routes';
import { customerRoutes } from './customers.routes';
import { deadLetterRoutes } from './dead-letters.routes';
import { createStaffCustomers } from './customers.service';
import { staffHousekeeping } from './housekeeping';
import { createStaffSessions } from './sessions';
import { signInRoutes } from './sign-in';
import { staffRoutes } from './staff.routes';

/**
 * The contact centre's side (issue 41): staff sign in through the insurer's workforce identity provider
 * (or, outside production, the stand-in at /staff-idp) into a server-side session, and the console's
 * calls under /staff/api check the session, the role and the CSRF token (platform/staff-guard.ts). They
 * find and help customers through the services of the modules below, each call with a reason, audited;
 * editors, publishers and operators change the site's content and switches through the content module's
 * editorial service (issue 42).
 */
export const staffModule: ServiceModule<
  'customers' | 'identity' | 'oidc' | 'policies' | 'registration' | 'portal' | 'contentEditorial'
> = {
  name: 'staff',
  service: 'staff',
  tables: ['staff_session', 'staff_sign_in'],
  uses: ['customers', 'identity', 'oidc', 'policies', 'registration', 'portal', 'contentEditorial'],
  async routes(app, ctx) {
    if (!ctx.config.staff.provider) return;
    const sessions = createStaffSessions(ctx);
    provideStaffSessions(ctx, sessions);
    await signInRoutes(app, ctx, sessions);
    await staffRoutes(app, ctx, sessions);
    await customerRoutes(app, createStaffCustomers(ctx));
    await contentRoutes(app, ctx.services.contentEditorial);
    await deadLetterRoutes(app, ctx);
  },
  housekeeping: staffHousekeeping,
};

/** What housekeeping deletes of this module's tables (the composition names every kind). */
export { staffHousekeeping };
