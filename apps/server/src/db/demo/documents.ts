import type { DocumentKind, PackInput } from '../../modules/document';
import { demoSeedActor, type DemoContext } from './context';
import { demoPortfolio, type DemoPolicy } from './portfolio';

/** The document packs of a demo policy, dated with the policy (their PDFs are drawn: no files). */
function packsFor(policy: DemoPolicy, today: Date): Array<PackInput & { packId: string }> {
  const n = policy.policyNumber;
  const motor = policy.apiProductType === 'motor';
  const doc = (kind: DocumentKind, name: string, date: string, suffix = '') => ({
    documentId: `${n}-${kind.replace(/_/g, '-')}${suffix}`,
    kind,
    name,
    date,
    file: null,
  });
  const newBusiness = {
    packId: `${n}-new`,
    title: 'Your policy documents',
    createdAt: `${policy.startDate}T09:00:00Z`,
    documents: [
      doc('schedule', 'Policy schedule', policy.startDate),
      ...(motor ? [doc('certificate', 'Certificate of motor insurance', policy.startDate)] : []),
      doc('statement_of_fact', 'Statement of fact', policy.startDate),
    ],
  };
  const booklets = {
    packId: `${n}-booklets`,
    title: 'Policy wording and product information',
    createdAt: `${policy.startDate}T09:00:01Z`,
    documents: [
      doc('policy_wording', 'Policy wording', policy.startDate),
      doc('insert', 'Insurance product information document', policy.startDate),
    ],
  };
  const packs = [newBusiness, booklets];
  if (policy.status === 'Renewing' || policy.status === 'RenewalCustomerReady') {
    const issued = new Date(
      Math.min(today.getTime(), Date.parse(`${policy.renewalDate}T00:00:00Z`) - 21 * 864e5),
    )
      .toISOString()
      .slice(0, 10);
    packs.push({
      packId: `${n}-renewal`,
      title: 'Your renewal documents',
      createdAt: `${issued}T09:00:00Z`,
      documents: [
        doc('schedule', 'Renewal schedule', issued, '-renewal'),
        doc('statement_of_fact', 'Statement of fact at renewal', issued, '-renewal'),
      ],
    });
  }
  return packs;
}

/**
 * The demo policies' document packs and the demo billing, written through the integration API's records
 * as the insurer's systems would load them (version: the seed's now), and the packs the demo no longer
 * makes removed.
 */
export async function seedDocuments(ctx: DemoContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration, documents } = ctx.services;
  for (const c of demoPortfolio(now).customers) {
    for (const policy of c.policies) {
      const packs = packsFor(policy, now);
      for (const { packId, ...pack } of packs) {
        const record = { version, ...pack };
        await integration.upsert(
          'policyDocumentPack',
          `${policy.policyNumber}/${packId}`,
          record,
          demoSeedActor,
        );
      }
      for (const packId of await documents.packIds(policy.policyNumber)) {
        if (packs.some((p) => p.packId === packId)) continue;
        await integration.remove(
          'policyDocumentPack',
          `${policy.policyNumber}/${packId}`,
          version,
          demoSeedActor,
        );
      }
    }
  }
}
