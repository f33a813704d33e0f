import { useEffect, useSyncExternalStore } from 'react';

/*
 * How many of the signed-in customer's messages from the insurer they have not opened (issue 40 point 6),
 * for the menu (which reads it again on each page, and the messages page when one is opened). The call and
 * its contract load with import() once a customer is signed in, as the new documents' counts do
 * (new-documents.ts): public pages carry none of it.
 */

interface Snapshot {
  customerId: string;
  unread: number;
}

let snapshot: Snapshot | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => snapshot;

/** Reads the count again (a page opened, a message opened); a failed read leaves what was there. */
export function refreshUnreadMessageCount(customerId: string): void {
  import('./unread-messages-call')
    .then(({ fetchUnreadMessageCount }) => fetchUnreadMessageCount(customerId))
    .then(
      (unread) => {
        snapshot = { customerId, unread };
        for (const listener of listeners) listener();
      },
      () => undefined,
    );
}

/** The count for this customer, or null before it is read; read again whenever `refreshKey` changes. */
export function useUnreadMessageCount(customerId: string | undefined, refreshKey?: string): number | null {
  const shared = useSyncExternalStore(subscribe, current, current);
  useEffect(() => {
    if (customerId && refreshKey !== undefined) refreshUnreadMessageCount(customerId);
  }, [customerId, refreshKey]);
  return shared && customerId && shared.customerId === customerId ? shared.unread : null;
}
