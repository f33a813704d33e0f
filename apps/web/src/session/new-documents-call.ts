import { newDocumentCountsCall, type NewDocumentCounts } from '@portal/contracts/document';
import { callApi } from '../lib/api-client';

/**
 * How many of the customer's documents they have not opened (issue 40): the menu says so beside Bills and
 * payments and Your policies. Loaded with import() (new-documents.ts) once the customer is signed in, so the
 * public pages carry none of it.
 */
export function fetchNewDocumentCounts(customerId: string): Promise<NewDocumentCounts> {
  return callApi(newDocumentCountsCall, { params: { customerId } });
}
