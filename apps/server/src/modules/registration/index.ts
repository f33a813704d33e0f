import { closeCounterStore } from '../../platform/counters';
import type { ServiceModule } from '../../platform/module';
import { registrationErasure } from './erasure';
import { registrationRoutes } from './registration.routes';
import { createRegistrationService, type RegistrationService } from './registration.service';

declare module '../../platform/services' {
  interface Services {
    registration: RegistrationService;
  }
}

/**
 * The registration service: start a registration (matched against customer records through
 * services.customers), complete it after activation, and forgotten-password requests. Accounts, links
 * and emails come from services.identity.
 */
export const registrationModule: ServiceModule<'customers' | 'policies' | 'identity', 'registration'> = {
  name: 'registration',
  tables: ['registration_request'],
  uses: ['customers', 'policies', 'identity'],
  provides: { registration: (ctx) => createRegistrationService(ctx) },
  erase: registrationErasure,
  async routes(app, ctx) {
    app.addHook('onClose', async () => closeCounterStore(ctx));
    await registrationRoutes(app, ctx.services.registration);
  },
};
