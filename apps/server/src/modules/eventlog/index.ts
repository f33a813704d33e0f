import type { ServiceModule } from '../../platform/module';
import { eventlogRoutes } from './eventlog.routes';
import { createEventlogService } from './eventlog.service';

/**
 * The event-logging service: the SPA's audit events, validated and appended to the audit trail
 * (audit_event, which the database keeps append-only).
 */
export const eventlogModule: ServiceModule = {
  name: 'eventlog',
  async routes(app, ctx) {
    await eventlogRoutes(app, ctx, createEventlogService(ctx));
  },
};
