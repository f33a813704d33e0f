import { demoCustomers } from '../../db/demo-customers';
import type { ServiceModule } from '../../platform/module';
import { documentRoutes } from './document.routes';
import { createDocumentsService, seedDocuments } from './document.service';
import { createDocumentRecordsService, type DocumentRecordsService } from './records.service';

declare module '../../platform/services' {
  interface Services {
    /** The document module's writes: the integration API's files and records, and quote documents. */
    documents: DocumentRecordsService;
  }
}

export { createDocumentRecordsService };

/** The document service: billing documents, policy document packs and their PDFs, for the signed-in customer. */
export const documentModule: ServiceModule = {
  name: 'document',
  async routes(app, ctx) {
    await documentRoutes(app, createDocumentsService(ctx));
  },
  // After the policy seed (packs belong to policies); dated from today like the policies. Each record is
  // written through the integration API's path, in a transaction of its own.
  seed: (ctx) => seedDocuments(ctx),
  seedInputs: () => ({ demoCustomers, today: new Date().toISOString().slice(0, 10) }),
  seedVersion: 3,
};
