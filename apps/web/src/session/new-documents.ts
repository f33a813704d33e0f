import type { NewDocumentCounts } from '@portal/contracts/document';
import { useEffect, useSyncExternalStore } from 'react';

/*
 * How many of the signed-in customer's documents they have not opened (issue 40), shared by the menu
 * (which reads them again on each page) and the dashboard's policy cards (which only read what is here).
 * The call and its contract load with import() once a customer is signed in: public pages carry none.
 */

interface Snapshot {
  customerId: string;
  counts: NewDocumentCounts;
}

let snapshot: Snapshot | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => snapshot;

/** Reads the counts again (a page opened, a document opened); a failed read leaves what was there. */
export function refreshNewDocumentCounts(customerId: string): void {
  import('./new-documents-call')
    .then(({ fetchNewDocumentCounts }) => fetchNewDocumentCounts(customerId))
    .then(
      (counts) => {
        snapshot = { customerId, counts };
        for (const listener of listeners) listener();
      },
      () => undefined,
    );
}

/** The counts for this customer, or null before they are read; read again whenever `refreshKey` changes. */
export function useNewDocumentCounts(
  customerId: string | undefined,
  refreshKey?: string,
): NewDocumentCounts | null {
  const shared = useSyncExternalStore(subscribe, current, current);
  useEffect(() => {
    if (customerId && refreshKey !== undefined) refreshNewDocumentCounts(customerId);
  }, [customerId, refreshKey]);
  return shared && customerId && shared.customerId === customerId ? shared.counts : null;
}
