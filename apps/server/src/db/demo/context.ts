import type { IntegrationActor } from '../../modules/integration';
import type {} from '../../modules/message';
import type { ModuleContext } from '../../platform/module';

/**
 * What the demo data loads through: the integration service, as the insurer's records load, and the few
 * demo-only calls of the modules whose data is not the insurer's (a demo customer's chosen preferences,
 * their sign-in account). Never a table.
 */
export type DemoContext = ModuleContext<'integration' | 'customers' | 'documents' | 'messages' | 'identity'>;

/** The demo seed writes the demo customers' records through the integration path, as this actor. */
export const demoSeedActor: IntegrationActor = {
  clientId: 'demo-seed',
  correlationId: null,
  rewritesSameVersion: true,
};
