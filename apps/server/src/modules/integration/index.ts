import type { ServiceModule } from '../../platform/module';
import { bulkRoutes } from './bulk.routes';
import { documentResources } from './documents';
import { documentRoutes } from './documents.routes';
import { integrationErasure } from './erasure';
import { messageResources } from './messages';
import { eventRoutes, installWebhookDispatcher } from './events.routes';
import { recordResources } from './records';
import { recordRoutes } from './records.routes';
import { createIntegrationService, type IntegrationService } from './service';

declare module '../../platform/services' {
  interface Services {
    integration: IntegrationService;
  }
}

export type { IntegrationActor } from './versioned';

/**
 * The integration API (docs/integration.md): the insurer's systems of record load customers, policies,
 * quotes, agencies, bills, documents, notifications and customer messages by their own ids and versions,
 * upload PDFs and bulk NDJSON, and read the customers' changes (a feed, and signed webhooks, from the
 * platform's journal of changes). Machine clients only: OAuth client credentials for the integration audience, a scope per
 * area. At the top of the module map: it writes through the modules below.
 */
export const integrationModule: ServiceModule<
  'customers' | 'policies' | 'documents' | 'messages' | 'erasure',
  'integration'
> = {
  name: 'integration',
  tables: ['integration_record', 'webhook_delivery'],
  uses: ['customers', 'policies', 'documents', 'messages', 'erasure'],
  provides: {
    integration: (ctx) =>
      createIntegrationService(ctx, () => [
        ...recordResources(ctx),
        ...documentResources(ctx),
        ...messageResources(ctx),
      ]),
  },
  erase: integrationErasure,
  async routes(app, ctx) {
    await recordRoutes(app, ctx);
    await documentRoutes(app, ctx);
    await eventRoutes(app, ctx);
    await bulkRoutes(app, ctx);
    installWebhookDispatcher(app, ctx);
  },
};
