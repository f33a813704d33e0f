import { buildPath } from '@portal/contracts/call-path';
import { getBillingDocumentPdfCall } from '@portal/contracts/document';
import { callApi } from '../../../lib/api-client';
import { downloadDocument } from '../../../lib/download-document';

/** A message's bill: GET {document}/api/v1/document/billing/{customerId}/{docId}, saved under its own name. */
export function downloadBillingDocument(
  customerId: string,
  docId: string,
  title: string,
  accountNumber: string,
) {
  const params = { customerId, docId };
  return downloadDocument(
    buildPath(getBillingDocumentPdfCall.path, params),
    (onHeaders) => callApi(getBillingDocumentPdfCall, { params, onHeaders }),
    { documentTitle: title, policyNumber: accountNumber, elementTitle: 'messages' },
  );
}
