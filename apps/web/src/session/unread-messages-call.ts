import { unreadMessageCountCall } from '@portal/contracts/message-count';
import { callApi } from '../lib/api-client';

/**
 * How many of the customer's messages from the insurer they have not opened (issue 40 point 6): the menu
 * says so beside Your messages. Loaded with import() (unread-messages.ts) once the customer is signed in,
 * so the public pages carry none of it, and the start-up code none of the messages feature.
 */
export async function fetchUnreadMessageCount(customerId: string): Promise<number> {
  return (await callApi(unreadMessageCountCall, { params: { customerId } })).unread;
}
