import { customerMessageKey, customerMessageRecord } from '@portal/contracts/integration/messages';
import type { SourceVersion } from '@portal/contracts/integration/common';
import type { MessageInput } from '../message';
import type { IntegrationContext } from './context';
import type { IntegrationResource } from './service';

type MessageRecord = { version: SourceVersion } & MessageInput;

/** `C1234567/messageId` split at its one slash (the key schema has checked it). */
const split = (key: string) => {
  const at = key.indexOf('/');
  return { customerId: key.slice(0, at), messageId: key.slice(at + 1) };
};

/**
 * The insurer's messages to a customer (messages.write), written through the message module's service:
 * a new or changed one is notified to the customer as a document is; an unchanged re-send never reaches
 * the write (the version and content held), and a removal tells no one.
 */
export function messageResources(ctx: IntegrationContext): IntegrationResource[] {
  const messages = () => ctx.services.messages;
  const message: IntegrationResource<MessageRecord> = {
    type: 'customerMessage',
    scope: 'messages.write',
    key: customerMessageKey,
    record: customerMessageRecord,
    customerOf: async (_tx, key) => split(key).customerId,
    upsert: (tx, key, { version: _version, ...record }) => {
      const { customerId, messageId } = split(key);
      return messages().upsertMessage(tx, customerId, messageId, record);
    },
    remove: (tx, key) => {
      const { customerId, messageId } = split(key);
      return messages().removeMessage(tx, customerId, messageId);
    },
  };
  return [message] as IntegrationResource[];
}
