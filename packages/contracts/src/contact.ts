import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue } from './common';

/**
 * Account service: the contact-us message (spec customer-data §2 Contact us, §5, §9). The primary and
 * secondary answers the customer picked arrive as productType and messageType; their wording comes from
 * content, so the contract bounds them rather than listing them.
 */

/** Spec §5 and §9: the message text is at most 500 characters. */
export const CONTACT_MESSAGE_MAX_LENGTH = 500;

export const contactMessage = named(
  z.strictObject({
    /** The primary answer, e.g. "Home insurance". */
    productType: z
      .string()
      .check(z.trim(), z.minLength(1, 'Choose what your message is about'), z.maxLength(100)),
    /** The secondary answer, e.g. "Make a change to my policy". */
    messageType: z.string().check(z.trim(), z.minLength(1, 'Choose the kind of message'), z.maxLength(100)),
    messageText: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Enter your message'),
        z.maxLength(
          CONTACT_MESSAGE_MAX_LENGTH,
          `Your message must be ${CONTACT_MESSAGE_MAX_LENGTH} characters or fewer`,
        ),
      ),
  }),
  'ContactMessage',
);
export type ContactMessage = z.infer<typeof contactMessage>;

/** The SPA treats a truthy `success` as sent and redirects to the success page. */
export const contactMessageResult = named(z.object({ success: z.boolean() }), 'ContactMessageResult');
export type ContactMessageResult = z.infer<typeof contactMessageResult>;

export const sendContactMessageCall = defineCall({
  id: 'contact.send',
  summary:
    "Sends the customer's message to the insurer. 400 when a field is missing or the text is over 500 characters; 404 when the customer id is not the token's; 429 with Retry-After when messages are sent too often; 503 with Retry-After when the insurer's inbox could not take it (nothing is stored).",
  service: 'account',
  method: 'POST',
  path: '/api/v1/messaging/contact/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: contactMessage,
  responses: { 200: contactMessageResult, ...customerCallErrors, 429: errorEnvelope, 503: errorEnvelope },
});
