import type { ServiceModule } from '../../platform/module';
import { bulkRoutes } from './bulk.routes';
import { documentResources } from './documents';
import { documentRoutes } from './documents.routes';
import { createEventsService, type EventsService } from './events';
import { eventRoutes, installWebhookDispatcher } from './events.routes';
import { recordResources } from './records';
import { recordRoutes } from './records.routes';
import { createIntegrationService, type IntegrationService } from './service';

declare module '../../platform/services' {
  interface Services {
    integration: IntegrationService;
    /** Customers' changes out: recorded in the changing transaction, sent as webhooks and the feed. */
    events: EventsService;
  }
}

/** Builds ctx.services.integration and ctx.services.events (after every module they write through). */
export function createIntegration(ctx: Parameters<ServiceModule['routes']>[1]) {
  ctx.services.events = createEventsService(ctx);
  ctx.services.integration = createIntegrationService(ctx, () => [
    ...recordResources(ctx),
    ...documentResources(ctx),
  ]);
}

/**
 * The integration API (docs/integration.md): the insurer's systems of record load customers, policies,
 * quotes, agencies, bills, documents and notifications by their own ids and versions, upload PDFs and
 * bulk NDJSON, and read the customers' changes (a feed, and signed webhooks). Machine clients only:
 * OAuth client credentials for the integration audience, a scope per area.
 */
export const integrationModule: ServiceModule = {
  name: 'integration',
  async routes(app, ctx) {
    await recordRoutes(app, ctx);
    await documentRoutes(app, ctx);
    await eventRoutes(app, ctx);
    await bulkRoutes(app, ctx);
    installWebhookDispatcher(app, ctx);
  },
};
