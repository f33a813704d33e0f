import type { ServiceModule } from '../../platform/module';
import { documentRoutes } from './document.routes';
import { listQuoteDocuments } from './document.repository';
import { createDocumentsService } from './document.service';
import { documentErasure } from './erasure';
import { installDocumentNotices } from './notices';
import { createDocumentRecordsService, type DocumentRecordsService } from './records.service';

declare module '../../platform/services' {
  interface Services {
    /** The document module's writes: the integration API's files and records, and quote documents. */
    documents: DocumentRecordsService;
  }
}

export type { BillingAccountRow } from './billing.repository';
export type { DocumentKind } from './document.repository';
export type { BillingDocumentInput, PackInput } from './records.service';

/**
 * The document service: billing documents, policy document packs and their PDFs, for the signed-in
 * customer, and the emails telling a paperless customer of new ones (notices.ts). It also gives the policy module, below it on the map, the documents of quotes (a port).
 */
export const documentModule: ServiceModule<'customers' | 'policies', 'documents' | 'quoteDocuments'> = {
  name: 'document',
  tables: [
    'document',
    'document_pack',
    'document_file',
    'billing_account',
    'billing_document',
    'document_notice',
    'document_seen',
  ],
  uses: ['customers', 'policies'],
  provides: {
    documents: (ctx) => createDocumentRecordsService(ctx),
    quoteDocuments: (ctx) => ({
      summaries: (customerId, quoteNumbers) => listQuoteDocuments(ctx.db, customerId, quoteNumbers),
    }),
  },
  async routes(app, ctx) {
    await documentRoutes(app, createDocumentsService(ctx));
    // Emails to paperless customers of their new documents (issue 40).
    installDocumentNotices(app, ctx);
  },
  erase: documentErasure,
};
