import {
  billingAccountNumber,
  billingAccountRecord,
  billingDocumentKey,
  billingDocumentRecord,
  documentPackKey,
  documentPackRecord,
} from '@portal/contracts/integration/documents';
import type { SourceVersion } from '@portal/contracts/integration/common';
import type { IntegrationContext } from './context';
import type { BillingDocumentInput, PackInput } from '../document';
import type { IntegrationResource } from './service';

// A record's file is required on the API; only the demo seed writes documents without one (their PDFs
// are drawn), through these same resources, so the records they take allow null.
type PackRecord = { version: SourceVersion } & PackInput;
type BillingAccountInput = { version: SourceVersion } & {
  customerId: string;
  paymentMethod: 'DirectDebit' | 'Annual';
  collectionDay: number | null;
  bankAccountEnding: string | null;
  policyNumbers: string[];
};
type BillingDocumentRecord = { version: SourceVersion } & BillingDocumentInput;

/** `a/b` split at its one slash (the key schemas have checked there is exactly one). */
const split = (key: string): [string, string] => {
  const at = key.indexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
};

/**
 * The insurer's document records, written through the document module's services: a policy's document
 * packs (documents.write), billing accounts and their documents (billing.write). Files are uploaded on
 * their own (documents.routes.ts) and referred to by sha256.
 */
export function documentResources(ctx: IntegrationContext): IntegrationResource[] {
  const documents = () => ctx.services.documents;
  const pack: IntegrationResource<PackRecord> = {
    type: 'policyDocumentPack',
    scope: 'documents.write',
    key: documentPackKey,
    record: documentPackRecord,
    customerOf: (tx, key) => documents().packCustomer(tx, split(key)[0]),
    upsert: (tx, key, record) => documents().upsertPack(tx, ...split(key), record),
    remove: (tx, key) => documents().removePack(tx, ...split(key)),
  };
  const account: IntegrationResource<BillingAccountInput> = {
    type: 'billingAccount',
    scope: 'billing.write',
    key: billingAccountNumber,
    record: billingAccountRecord,
    customerOf: async (_tx, _key, record) => record.customerId,
    upsert: (tx, key, { version: _version, ...record }) =>
      documents().upsertBillingAccount(tx, { accountNumber: key, ...record }),
    remove: (tx, key) => documents().removeBillingAccount(tx, key),
  };
  const billingDocument: IntegrationResource<BillingDocumentRecord> = {
    type: 'billingDocument',
    scope: 'billing.write',
    key: billingDocumentKey,
    record: billingDocumentRecord,
    customerOf: (tx, key) => documents().accountCustomer(tx, split(key)[0]),
    upsert: (tx, key, { version: _version, ...record }) =>
      documents().upsertBillingDocument(tx, ...split(key), record),
    remove: (tx, key) => documents().removeBillingDocument(tx, ...split(key)),
  };
  return [pack, account, billingDocument] as IntegrationResource[];
}
