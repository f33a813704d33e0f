import type { ServiceModule } from '../../platform/module';
import { accountRoutes } from './account.routes';
import { createContactService } from './contact.service';
import { createCustomersService, type CustomersService } from './customers.service';
import { accountErasure } from './erasure';
import { createNotificationsService } from './notifications.service';
import { createPreferencesService } from './preferences.service';
import { createProfileService } from './profile.service';

declare module '../../platform/services' {
  interface Services {
    customers: CustomersService;
  }
}

/**
 * The account service: customer records (shared with other modules through `services.customers`),
 * marketing and correspondence preferences, notifications, profile, contact-us messages, and the status
 * token for redirect_url placeholders.
 */
export const accountModule: ServiceModule<'content' | 'identity' | 'oidc', 'customers'> = {
  name: 'account',
  tables: ['customer', 'customer_preferences', 'notification', 'customer_notification', 'contact_message'],
  uses: ['content', 'identity', 'oidc'],
  provides: {
    customers: (ctx) => createCustomersService(ctx.db, ctx.clock, () => ctx.services.identity),
  },
  async routes(app, ctx) {
    await accountRoutes(
      app,
      ctx,
      createPreferencesService(ctx),
      createProfileService(ctx),
      createNotificationsService(ctx),
      createContactService(ctx),
    );
  },
  erase: accountErasure,
};
