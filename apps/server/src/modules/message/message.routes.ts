import type { FastifyInstance } from 'fastify';
import { getMessageCall, listMessagesCall } from '@portal/contracts/message';
import { unreadMessageCountCall } from '@portal/contracts/message-count';
import { route } from '../../platform/route';
import type { MessagesService } from './message.service';

/** "Your messages": the list, one message (which marks it read) and the unread count. */
export async function messageRoutes(app: FastifyInstance, messages: MessagesService) {
  // Never kept (the platform's default, Cache-Control: no-store): a message may be withdrawn or read.
  route(app, listMessagesCall, ({ params, query }) =>
    messages.list(params.customerId, query.page, query.pageSize),
  );
  route(app, unreadMessageCountCall, ({ params }) => messages.unreadCount(params.customerId));
  // The contact centre's read-only view (issue 41) leaves the message unread.
  route(app, getMessageCall, ({ params, customer }) =>
    messages.open(params.customerId, params.messageId, !customer.sharedView),
  );
}
