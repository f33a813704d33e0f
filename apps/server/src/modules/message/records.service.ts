import type { CustomerMessageRecordInput } from '@portal/contracts/integration/messages';
import type { Queryable } from '../../platform/db';
import { HttpError } from '../../platform/errors';
import type { MessageContext } from './context';
import {
  deleteMessage,
  lockMessage,
  markRead,
  markUnread,
  upsertMessage,
  type MessageContent,
} from './message.repository';

/** A message as the integration API takes it, without its version. */
export type MessageInput = Omit<CustomerMessageRecordInput, 'version'>;

/** 422 REFERENCE_NOT_HELD naming the field, as the other records' references are refused. */
function notHeld(field: string, fieldMessage: string, message: string): HttpError {
  return new HttpError(422, 'REFERENCE_NOT_HELD', message, { [field]: fieldMessage });
}

const sameContent = (a: MessageContent, b: MessageContent) =>
  a.subject === b.subject &&
  a.body === b.body &&
  a.category === b.category &&
  a.policyNumber === b.policyNumber &&
  a.documentId === b.documentId;

/**
 * The message module's writes, for the integration API's customer messages (and the demo seed, which
 * loads the same way). Each takes the caller's transaction. A new message, or one whose subject, body,
 * category or links change, is notified as a document is (the document module's notices, in this
 * transaction) and is unread again; one written again as it is (a later expiry, say), or one that has
 * already expired, tells no one.
 */
export function createMessageRecordsService(ctx: MessageContext) {
  const { customers, policies, documents } = ctx.services;

  /** Each reference must be held and be the customer's: 422 naming the field otherwise. */
  async function requireReferences(tx: Queryable, customerId: string, message: MessageInput) {
    if (!(await customers.held(tx, customerId))) {
      throw notHeld(
        'customerId',
        'No customer with this id is held.',
        'The customer is not held: load the customer first, then their messages.',
      );
    }
    if (message.policyNumber) {
      const holder = await policies.holderOf(tx, message.policyNumber);
      if (holder !== customerId) {
        throw notHeld(
          'policyNumber',
          holder === null
            ? 'No policy with this number is held.'
            : 'This policy is held for another customer.',
          "The message links to a policy that is not held for this customer: load the policy first, or link to one of the customer's.",
        );
      }
    }
    if (message.documentId) {
      const holders = await documents.documentHolders(tx, message.documentId);
      if (!holders.includes(customerId)) {
        throw notHeld(
          'documentId',
          holders.length === 0
            ? 'No document with this id is held.'
            : 'This document is held for another customer.',
          "The message links to a document that is not held for this customer: load the document first, or link to one of the customer's.",
        );
      }
    }
  }

  return {
    async upsertMessage(tx: Queryable, customerId: string, messageId: string, message: MessageInput) {
      await requireReferences(tx, customerId, message);
      const content: MessageContent = {
        subject: message.subject,
        body: message.body,
        category: message.category,
        policyNumber: message.policyNumber ?? null,
        documentId: message.documentId ?? null,
      };
      const before = await lockMessage(tx, customerId, messageId);
      const now = ctx.clock.now();
      await upsertMessage(
        tx,
        {
          ...content,
          customerId,
          messageId,
          sentAt: message.sentAt ?? null,
          expiresAt: message.expiresAt ?? null,
        },
        now,
      );
      if (before && sameContent(before, content)) return;
      // Changed: unread again everywhere, as its notice says it was updated.
      if (before) await markUnread(tx, customerId, messageId);
      // One already expired is not shown: there is nothing to tell the customer of.
      if (message.expiresAt && Date.parse(message.expiresAt) <= now.getTime()) return;
      await documents.recordMessageNotice(tx, customerId, {
        messageId,
        category: content.category,
        change: before ? 'updated' : 'new',
      });
    },

    /** Removes the message; answers whose it was, or null when it was not held. Nobody is told. */
    async removeMessage(tx: Queryable, customerId: string, messageId: string) {
      return (await deleteMessage(tx, customerId, messageId)) ? { customerId } : null;
    },

    /** The demo seed only: the customer has opened these messages (the others show unread). */
    markDemoRead: (customerId: string, messageIds: readonly string[]) =>
      markRead(ctx.db, customerId, messageIds, ctx.clock.now()),
  };
}
export type MessageRecordsService = ReturnType<typeof createMessageRecordsService>;
