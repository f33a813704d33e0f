import { z } from 'zod/mini';
import { defineCall, named } from './call';
import {
  customerCallErrors,
  customerIdValue,
  isoDate,
  isoDateTime,
  opaqueId,
  pageOf,
  paginationQuery,
} from './common';
import { policyNumber } from './fields';
import { messageCategories } from './message-categories';

/**
 * Messages from the insurer (issue 40 point 6): "Your messages", newest first, a page at a time, and one
 * message with its links. The insurer loads them through the integration API (integration/messages.ts).
 * Every call needs the bearer token; a message id or customer id that is not the token's customer's is 404.
 * Served by the document service (the insurer's correspondence, beside bills and documents).
 */

/** What a message is about (message-categories.ts): renewal, payment, claim or general. */
export const messageCategory = z.enum(messageCategories);
export type { MessageCategory } from './message-categories';

/** A subject line: plain text, no control characters, at most 200 characters. */
export const messageSubject = z.string().check(
  z.minLength(1),
  z.maxLength(200),
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  z.regex(/^[^\u0000-\u001f\u007f]+$/, 'A subject is one line of text'),
);

/** One message in "Your messages". */
export const messageSummary = named(
  z.object({
    id: opaqueId,
    subject: messageSubject,
    category: messageCategory,
    /** When the insurer sent it (or, when it did not say, when the portal received it). */
    receivedAt: isoDateTime,
    /** Not opened yet, on any device: the list marks it. Opening it (getMessageCall) clears it everywhere. */
    isUnread: z.boolean(),
  }),
  'MessageSummary',
);
export type MessageSummary = z.infer<typeof messageSummary>;

/** A page of the customer's messages, newest first (expired ones are not listed). */
export const messagePage = named(pageOf(messageSummary), 'MessagePage');
export type MessagePage = z.infer<typeof messagePage>;

/** The policy a message is about, when it is still the customer's: its details page. */
export const messagePolicyLink = named(
  z.object({ policyNumber, productName: z.string().check(z.minLength(1), z.maxLength(200)) }),
  'MessagePolicyLink',
);

/**
 * The document a message is about, when it is still the customer's: its PDF, fetched as the page that
 * lists it fetches it. `kind` says which: a bill (`reference` its billing account), a document of a
 * policy's pack (`reference` the policy number) or a quote's document (`reference` the quote number).
 */
export const messageDocumentLink = named(
  z.object({
    id: opaqueId,
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    date: isoDate,
    kind: z.enum(['bill', 'policy', 'quote']),
    reference: z.string().check(z.minLength(1), z.maxLength(40)),
  }),
  'MessageDocumentLink',
);
export type MessageDocumentLink = z.infer<typeof messageDocumentLink>;

/** One message, opened: its body (the content service's rich-text subset) and its links. */
export const customerMessage = named(
  z.object({
    id: opaqueId,
    subject: messageSubject,
    category: messageCategory,
    receivedAt: isoDateTime,
    /**
     * The content service's rich-text subset: checked as content is when the insurer sent it (the
     * integration contract), and again by the SPA's renderer, which shows nothing outside it. Not checked
     * with the content schema here, so the start-up code (the menu's count) does not carry that schema.
     */
    body: z.string().check(z.maxLength(20_000)),
    /** Null when it names none, or the policy is no longer the customer's. */
    policy: z.nullable(messagePolicyLink),
    /** Null when it names none, or the document is no longer held. */
    document: z.nullable(messageDocumentLink),
  }),
  'CustomerMessage',
);
export type CustomerMessage = z.infer<typeof customerMessage>;

const customerParams = z.strictObject({ customerId: customerIdValue });

export const listMessagesCall = defineCall({
  id: 'message.list',
  summary:
    "One page of the customer's messages from the insurer, newest first, each saying whether it is unread; expired messages are not listed. 404 when the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/message/:customerId',
  auth: true,
  params: customerParams,
  query: paginationQuery,
  responses: { 200: messagePage, ...customerCallErrors },
});

export const getMessageCall = defineCall({
  id: 'message.get',
  summary:
    "One message with its links, marked read on every device by this call (as a document is opened by fetching its PDF). 404 when the message is not the customer's, has expired or been removed, or the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/message/:customerId/:messageId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, messageId: opaqueId }),
  responses: { 200: customerMessage, ...customerCallErrors },
});
