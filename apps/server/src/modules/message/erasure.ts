import type { ErasurePort } from '../../platform/module';
import { eraseMessages } from './message.repository';

/**
 * The message module's part in erasing a customer (decision 020): their messages from the insurer and the
 * record of which they opened. Before the document and policy modules' (below it on the map), whose
 * records a message links to. A notice of a message already queued is the document module's and the
 * message queue's, which erase their own.
 */
export const messageErasure: ErasurePort = {
  async erase(tx, customerId) {
    return { messages: await eraseMessages(tx, customerId) };
  },
};
