import type { ModuleContext } from '../../platform/module';

/**
 * The policy module's context: the documents of quotes (a port the document module, above it, fills
 * through the composition) and its own service.
 */
export type PolicyContext = ModuleContext<'quoteDocuments' | 'policies'>;
