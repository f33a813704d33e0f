import { closeCounterStore } from '../../platform/counters';
import type { ServiceModule } from '../../platform/module';
import { eventlogRoutes } from './eventlog.routes';
import { createEventlogService } from './eventlog.service';

/**
 * The event-logging service: the SPA's audit events, validated and appended to the audit trail
 * (audit_event, which the database keeps append-only).
 */
export const eventlogModule: ServiceModule = {
  name: 'eventlog',
  // The SPA's events go into the platform's audit trail; the module owns no table.
  tables: [],
  async routes(app, ctx) {
    const eventlog = createEventlogService(ctx);
    // Events accepted before the close are committed before the database is closed (server.ts closes
    // the app first).
    app.addHook('onClose', async () => {
      await eventlog.close();
      await closeCounterStore(ctx);
    });
    await eventlogRoutes(app, ctx, eventlog);
  },
};
