import type { ModuleContext } from '../../platform/module';
// The doors of the modules whose services it names, for their declarations of them.
import type {} from '../account';
import type {} from '../document';
import type {} from '../policy';

/**
 * The message module's context: the customers' records (whether a customer is held), their policies and
 * documents (what a message may link to, and how the link is shown), the document module's notices (a new
 * message is notified as a document is), and its own service.
 */
export type MessageContext = ModuleContext<'customers' | 'policies' | 'documents' | 'messages'>;
