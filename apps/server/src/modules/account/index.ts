import { seedDemoActivity } from '../../db/demo-activity';
import { demoCustomers } from '../../db/demo-customers';
import type { ServiceModule } from '../../platform/module';
import { accountRoutes } from './account.routes';
import { createCustomersService, seedCustomers, type CustomersService } from './customers.service';
import { createContactService } from './contact.service';
import { createNotificationsService, seedNotifications } from './notifications.service';
import { createPreferencesService } from './preferences.service';
import { createProfileService } from './profile.service';

declare module '../../platform/services' {
  interface Services {
    customers: CustomersService;
  }
}

export { createCustomersService };

/**
 * The account service: customer records (shared with other modules through `services.customers`),
 * marketing and correspondence preferences, notifications, profile, contact-us messages, and the status
 * token for redirect_url placeholders.
 */
export const accountModule: ServiceModule = {
  name: 'account',
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
  // Customers, then the notifications (dated from today, so a new day seeds again and shows them afresh),
  // each record in its own transaction through the integration API's path.
  seed: async (ctx) => {
    await seedCustomers(ctx);
    await seedNotifications(ctx);
    // The activity history of one demo customer (decision 027), once.
    await seedDemoActivity(ctx);
  },
  seedInputs: () => ({ demoCustomers, today: new Date().toISOString().slice(0, 10) }),
  seedVersion: 4,
};
