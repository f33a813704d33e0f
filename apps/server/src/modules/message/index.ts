import type { ServiceModule } from '../../platform/module';
import { messageErasure } from './erasure';
import { messageRoutes } from './message.routes';
import { createMessagesService } from './message.service';
import { createMessageRecordsService, type MessageRecordsService } from './records.service';

declare module '../../platform/services' {
  interface Services {
    /** The message module's writes: the integration API's customer messages (and the demo seed's). */
    messages: MessageRecordsService;
  }
}

export type { MessageInput } from './records.service';

/**
 * Messages from the insurer (issue 40 point 6): the integration API's customer messages, written through
 * `services.messages`, and "Your messages" for the signed-in customer. Served by the document service (the
 * insurer's correspondence, beside bills and documents). A new or changed message is notified as a
 * document is, through the document module below it; a link to a policy or a document is checked when
 * written and resolved when read through the policy and document modules.
 */
export const messageModule: ServiceModule<'customers' | 'policies' | 'documents', 'messages'> = {
  name: 'message',
  service: 'document',
  tables: ['customer_message', 'customer_message_read'],
  uses: ['customers', 'policies', 'documents'],
  provides: {
    messages: (ctx) => createMessageRecordsService(ctx),
  },
  async routes(app, ctx) {
    await messageRoutes(app, createMessagesService(ctx));
  },
  erase: messageErasure,
};
