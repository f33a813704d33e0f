import { z } from 'zod/mini';
import { defineCall, named } from '../call';
import { customerIdValue, isoDateTime, opaqueId } from '../common';
import { richText } from '../content/building-blocks';
import { policyNumber } from '../fields';
import { messageCategory, messageSubject } from '../message';
import { integrationResult, integrationWriteErrors, sourceVersion, versionQuery } from './common';

/**
 * Messages from the insurer to one customer (docs/integration.md, issue 40 point 6): shown in the portal's
 * "Your messages", and notified as a new document is. Keyed by the customer and the insurer's own message
 * id, versioned and removed like every record.
 */

/** `${customerId}/${messageId}`: one message of one customer. */
export const customerMessageKey = z
  .string()
  .check(z.regex(/^C\d{7}\/[A-Za-z0-9_-]{1,64}$/, 'Expected customerId/messageId'));

export const customerMessageRecord = named(
  z
    .strictObject({
      version: sourceVersion,
      subject: messageSubject,
      /**
       * The message in the content service's rich-text subset, checked exactly as content files are: only
       * p br strong em b i ul ol li a h2 h3 h4 span abbr, with href title class lang rel target aria-label;
       * links to a site path, https, tel: or mailto: only. Anything else (a script, a style, an image, an
       * event handler, a comment) is a 400 naming `body`.
       */
      body: richText.check(z.minLength(1)),
      category: messageCategory,
      /** A policy of the customer's the message is about: its page is linked. Load the policy first. */
      policyNumber: z.optional(z.nullable(policyNumber)),
      /** A document of the customer's (a bill, a policy's or a quote's) the message is about: linked. */
      documentId: z.optional(z.nullable(opaqueId)),
      /** When the insurer sent it, as the customer sees it; null or absent: when the portal received it. */
      sentAt: z.optional(z.nullable(isoDateTime)),
      /** From this instant the customer no longer sees it; null or absent: never. */
      expiresAt: z.optional(z.nullable(isoDateTime)),
    })
    .check(
      z.refine((m) => !m.sentAt || !m.expiresAt || Date.parse(m.expiresAt) > Date.parse(m.sentAt), {
        message: 'expiresAt must be after sentAt',
        path: ['expiresAt'],
      }),
    ),
  'IntegrationCustomerMessage',
);
export type CustomerMessageRecordInput = z.infer<typeof customerMessageRecord>;

const messageParams = z.strictObject({ customerId: customerIdValue, messageId: opaqueId });
const responses = { 200: integrationResult, ...integrationWriteErrors };

export const putCustomerMessageCall = defineCall({
  id: 'integration.customerMessage.put',
  summary:
    "Creates or replaces one message to a customer held. A new message, or one whose subject, body, category or links change, is notified to the customer as a new document is. 422 when the customer is not held, or the policy or document named is not held or not that customer's.",
  service: 'integration',
  method: 'PUT',
  path: '/integration/v1/customers/:customerId/messages/:messageId',
  auth: false,
  clientScope: 'messages.write',
  params: messageParams,
  body: customerMessageRecord,
  responses,
});

export const deleteCustomerMessageCall = defineCall({
  id: 'integration.customerMessage.delete',
  summary: 'Removes one message of a customer: they no longer see it, and nobody is told.',
  service: 'integration',
  method: 'DELETE',
  path: '/integration/v1/customers/:customerId/messages/:messageId',
  auth: false,
  clientScope: 'messages.write',
  params: messageParams,
  query: versionQuery,
  responses,
});
