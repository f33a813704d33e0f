import { customerCountStore } from './customer-count-store';

/*
 * How many of the signed-in customer's messages from the insurer they have not opened (issue 40 point 6),
 * for the menu (which reads it again on each page, and the messages page when one is opened). The call and
 * its contract load with import() once a customer is signed in, as the new documents' counts do
 * (new-documents.ts): public pages carry none of it.
 */

const store = customerCountStore<number>((customerId) =>
  import('./unread-messages-call').then(({ fetchUnreadMessageCount }) => fetchUnreadMessageCount(customerId)),
);

/** Reads the count again (a page opened, a message opened); a failed read leaves what was there. */
export const refreshUnreadMessageCount = store.refresh;

/** The count for this customer, or null before it is read; read again whenever `refreshKey` changes. */
export const useUnreadMessageCount = store.useCount;
