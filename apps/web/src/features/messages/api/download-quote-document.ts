import { buildPath } from '@portal/contracts/call-path';
import { getQuoteDocumentPdfCall } from '@portal/contracts/document';
import { callApi } from '../../../lib/api-client';
import { downloadDocument } from '../../../lib/download-document';

/**
 * A message's quote document: GET {document}/api/v1/document/quote/{customerId}/{quoteNumber}/{docId}/{title},
 * saved as a file.
 */
export function downloadQuoteDocument(customerId: string, quoteNumber: string, docId: string, title: string) {
  const params = { customerId, policyId: quoteNumber, docId, title };
  return downloadDocument(
    buildPath(getQuoteDocumentPdfCall.path, params),
    (onHeaders) => callApi(getQuoteDocumentPdfCall, { params, onHeaders }),
    { documentTitle: title, policyNumber: quoteNumber, elementTitle: 'messages' },
  );
}
