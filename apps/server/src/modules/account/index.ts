import { demoCustomers } from '../../db/demo-customers';
import type { ServiceModule } from '../../platform/module';
import { accountRoutes } from './account.routes';
import { createCustomersService, seedCustomers, type CustomersService } from './customers.service';
import { createPreferencesService } from './preferences.service';

declare module '../../platform/services' {
  interface Services {
    customers: CustomersService;
  }
}

export { createCustomersService };
export type { CustomersService, CustomerRecord } from './customers.service';

/**
 * The account service: customer records (shared with other modules through `services.customers`),
 * marketing and correspondence preferences, and the status token for redirect_url placeholders.
 */
export const accountModule: ServiceModule = {
  name: 'account',
  async routes(app, ctx) {
    await accountRoutes(app, ctx, createPreferencesService(ctx));
  },
  seed: (ctx) => ctx.db.transaction((tx) => seedCustomers(tx, ctx.clock)),
  seedInputs: () => demoCustomers,
};
