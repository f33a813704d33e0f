import { buildPath } from '@portal/contracts/call-path';
import { getPolicyDocumentPdfCall } from '@portal/contracts/document';
import { callApi } from '../../../lib/api-client';
import { downloadDocument } from '../../../lib/download-document';

/** GET {document}/api/v1/document/policy/{customerId}/{policyId}/{docId}, saved under its own name. */
export function downloadPolicyDocument(customerId: string, policyId: string, docId: string, title: string) {
  const params = { customerId, policyId, docId };
  return downloadDocument(
    docId ? buildPath(getPolicyDocumentPdfCall.path, params) : '',
    (onHeaders) => callApi(getPolicyDocumentPdfCall, { params, onHeaders }),
    { documentTitle: title, policyNumber: policyId, elementTitle: 'policy documents' },
  );
}
