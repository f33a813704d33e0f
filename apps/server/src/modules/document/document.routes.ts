import type { FastifyInstance } from 'fastify';
import {
  getBillingDocumentPdfCall,
  getPolicyDocumentPdfCall,
  listBillingDocumentsCall,
  getQuoteDocumentPdfCall,
  listPolicyDocumentsCall,
  newDocumentCountsCall,
} from '@portal/contracts/document';
import { route } from '../../platform/route';
import type { DocumentsService } from './document.service';

/** The document service: billing documents, policy document packs, and the PDFs of each. */
export async function documentRoutes(app: FastifyInstance, documents: DocumentsService) {
  // Lists are never kept (the platform's default, Cache-Control: no-store, platform/security.ts); a PDF's
  // answer sets its own (private, checked each time: ETag and 304).

  route(app, listBillingDocumentsCall, ({ params, query }) =>
    documents.billingDocuments(params.customerId, query.page, query.pageSize),
  );
  // The contact centre's read-only view (issue 41) leaves a document New and a message unread.
  route(app, getBillingDocumentPdfCall, ({ params, reply, customer }) =>
    documents.sendBillingDocument(reply, params.customerId, params.docId, !customer.sharedView),
  );
  route(app, listPolicyDocumentsCall, ({ params, query }) =>
    documents.policyDocuments(params.customerId, params.policyId, query.page, query.pageSize),
  );
  route(app, getPolicyDocumentPdfCall, ({ params, reply, customer }) =>
    documents.sendPolicyDocument(
      reply,
      params.customerId,
      params.policyId,
      params.docId,
      !customer.sharedView,
    ),
  );
  route(app, getQuoteDocumentPdfCall, ({ params, reply }) =>
    documents.sendQuoteDocument(reply, params.customerId, params.policyId, params.docId, params.title),
  );
  route(app, newDocumentCountsCall, ({ params }) => documents.newDocumentCounts(params.customerId));
}
