import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../account';
import type {} from '../document';
import type {} from '../message';
import type {} from '../policy';

/**
 * The integration module's context: the modules it writes the insurer's records through (customers,
 * policies, documents, messages), every module's erasure (through the composition), and its own service.
 */
export type IntegrationContext = ModuleContext<
  'customers' | 'policies' | 'documents' | 'messages' | 'erasure' | 'integration'
>;
