import { buildPath } from '@portal/contracts/call-path';
import { getPolicyDocumentPdfCall } from '@portal/contracts/document';
import { callApi } from '../../../lib/api-client';
import { downloadDocument } from '../../../lib/download-document';

/**
 * A message's policy document: GET {document}/api/v1/document/policy/{customerId}/{policyId}/{docId}, saved
 * under its own name.
 */
export function downloadPolicyDocument(customerId: string, policyId: string, docId: string, title: string) {
  const params = { customerId, policyId, docId };
  return downloadDocument(
    buildPath(getPolicyDocumentPdfCall.path, params),
    (onHeaders) => callApi(getPolicyDocumentPdfCall, { params, onHeaders }),
    { documentTitle: title, policyNumber: policyId, elementTitle: 'messages' },
  );
}
