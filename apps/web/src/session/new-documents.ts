import type { NewDocumentCounts } from '@portal/contracts/document';
import { customerCountStore } from './customer-count-store';

/*
 * How many of the signed-in customer's documents they have not opened (issue 40), shared by the menu
 * (which reads them again on each page) and the dashboard's policy cards (which only read what is here).
 * The call and its contract load with import() once a customer is signed in: public pages carry none.
 */

const store = customerCountStore<NewDocumentCounts>((customerId) =>
  import('./new-documents-call').then(({ fetchNewDocumentCounts }) => fetchNewDocumentCounts(customerId)),
);

/** Reads the counts again (a page opened, a document opened); a failed read leaves what was there. */
export const refreshNewDocumentCounts = store.refresh;

/** The counts for this customer, or null before they are read; read again whenever `refreshKey` changes. */
export const useNewDocumentCounts = store.useCount;
