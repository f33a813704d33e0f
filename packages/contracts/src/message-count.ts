import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { customerCallErrors, customerIdValue } from './common';

/*
 * How many of the customer's messages from the insurer they have not opened (message.ts has the other
 * calls): apart, because the menu reads it on every signed-in page, so the start-up code of those pages
 * carries this call's schema and not the messages' own.
 */

export const unreadMessageCount = named(
  z.object({ unread: z.number().check(z.int(), z.minimum(0)) }),
  'UnreadMessageCount',
);
export type UnreadMessageCount = z.infer<typeof unreadMessageCount>;

export const unreadMessageCountCall = defineCall({
  id: 'message.unreadCount',
  summary:
    "How many of the customer's messages (not expired) they have not opened yet, on any device. 404 when the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/message/unread/:customerId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: unreadMessageCount, ...customerCallErrors },
});
