import type { CustomerMessage, MessagePage } from '@portal/contracts/message';
import type { UnreadMessageCount } from '@portal/contracts/message-count';
import { notFound } from '../../platform/errors';
import type { MessageContext } from './context';
import { countUnread, findMessage, listMessages, markRead } from './message.repository';

/**
 * "Your messages" for the signed-in customer (issue 40 point 6): the list, newest first and a page at a
 * time as the bills are; one message with its links resolved to what the customer may open now; and how
 * many are unread, for the menu. Opening a message marks it read on every device, as fetching a document's
 * PDF marks the document opened (decision 035). Expired messages are as if they were not there.
 */
export function createMessagesService(ctx: MessageContext) {
  const { policies, documents } = ctx.services;

  return {
    async list(customerId: string, page: number, pageSize: number): Promise<MessagePage> {
      const found = await listMessages(ctx.db, customerId, ctx.clock.now(), page, pageSize);
      return {
        currentPage: page,
        lastPage: Math.max(1, Math.ceil(found.total / pageSize)),
        pageSize,
        totalRecords: found.total,
        data: found.messages.map((m) => ({
          id: m.messageId,
          subject: m.subject,
          category: m.category,
          receivedAt: m.receivedAt,
          isUnread: m.isUnread,
        })),
      };
    },

    /** `byCustomer` false: the contact centre's read-only view (issue 41), which leaves it unread. */
    async open(customerId: string, messageId: string, byCustomer = true): Promise<CustomerMessage> {
      const message = await findMessage(ctx.db, customerId, messageId, ctx.clock.now());
      if (!message) throw notFound('There is no such message.');
      // Its links as they stand now: a policy or document gone since (or moved to another customer) is
      // not offered.
      const [policy, document] = await Promise.all([
        message.policyNumber
          ? policies.billingTerms(customerId, [message.policyNumber]).then((terms) => terms[0] ?? null)
          : null,
        message.documentId ? documents.documentLink(customerId, message.documentId) : null,
      ]);
      if (message.isUnread && byCustomer) await markRead(ctx.db, customerId, [messageId], ctx.clock.now());
      return {
        id: message.messageId,
        subject: message.subject,
        category: message.category,
        receivedAt: message.receivedAt,
        body: message.body,
        policy: policy ? { policyNumber: policy.policyNumber, productName: policy.productName } : null,
        document,
      };
    },

    async unreadCount(customerId: string): Promise<UnreadMessageCount> {
      return { unread: await countUnread(ctx.db, customerId, ctx.clock.now()) };
    },
  };
}
export type MessagesService = ReturnType<typeof createMessagesService>;
