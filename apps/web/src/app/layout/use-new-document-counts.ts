import { useEffect, useState } from 'react';

/** The menu items that count their documents (navigation.json's addresses). */
const BILLS_PAGE = '/account/bills-and-payments';
const POLICIES_PAGE = '/account/policies';

/** The menu items (by address) that say how many of their documents are new, and the counts. */
export type NewCounts = Readonly<Record<string, number>>;

/**
 * The counts of documents not opened yet, read when a signed-in customer opens a page (so a document
 * opened on one page is counted off on the next); none while signed out or when the read fails (the
 * menu then says nothing).
 */
export function useNewDocumentCounts(customerId: string | undefined, pathname: string): NewCounts {
  const [counts, setCounts] = useState<{ customerId: string; counts: NewCounts } | null>(null);
  useEffect(() => {
    if (!customerId) return;
    let live = true;
    import('./new-documents')
      .then(({ fetchNewDocumentCounts }) => fetchNewDocumentCounts(customerId))
      .then(
        ({ bills, policyDocuments }) => {
          if (live)
            setCounts({ customerId, counts: { [BILLS_PAGE]: bills, [POLICIES_PAGE]: policyDocuments } });
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [customerId, pathname]);
  return counts && counts.customerId === customerId ? counts.counts : {};
}
