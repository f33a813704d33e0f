import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../account';
import type {} from '../policy';

/**
 * The document module's context: the customers' records (a letter's addressee; whether a customer is
 * held), their policies and quotes (what a document says of them, whose a policy is), and its own.
 */
export type DocumentContext = ModuleContext<'customers' | 'policies' | 'documents' | 'quoteDocuments'>;
