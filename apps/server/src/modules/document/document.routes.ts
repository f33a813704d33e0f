import type { FastifyInstance } from 'fastify';
import {
  getPolicyDocumentPdfCall,
  getQuoteDocumentPdfCall,
  listPolicyDocumentsCall,
} from '@portal/contracts/document';
import { route } from '../../platform/route';
import type { DocumentsService } from './document.service';

/** The document service: policy document packs and the PDFs of policy and quote documents. */
export async function documentRoutes(app: FastifyInstance, documents: DocumentsService) {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  route(app, listPolicyDocumentsCall, ({ params, query }) =>
    documents.policyDocuments(params.customerId, params.policyId, query.page, query.pageSize),
  );
  route(app, getPolicyDocumentPdfCall, ({ params, reply }) =>
    documents.sendPolicyDocument(reply, params.customerId, params.policyId, params.docId),
  );
  route(app, getQuoteDocumentPdfCall, ({ params, reply }) =>
    documents.sendQuoteDocument(reply, params.customerId, params.policyId, params.docId, params.title),
  );
}
