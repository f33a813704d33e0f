import { demoCustomers } from '../../db/demo-customers';
import type { ServiceModule } from '../../platform/module';
import { documentRoutes } from './document.routes';
import { createDocumentsService, seedDocuments } from './document.service';

/** The document service: billing documents, policy document packs and their PDFs, for the signed-in customer. */
export const documentModule: ServiceModule = {
  name: 'document',
  async routes(app, ctx) {
    await documentRoutes(app, createDocumentsService(ctx));
  },
  // After the policy seed (packs belong to policies); dated from today like the policies.
  seed: (ctx) => ctx.db.transaction((tx) => seedDocuments(tx, ctx.clock)),
  seedInputs: () => ({ demoCustomers, today: new Date().toISOString().slice(0, 10) }),
  seedVersion: 2,
};
