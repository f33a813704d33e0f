import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from '../call';
import { customerIdValue, isoDate, isoDateTime, opaqueId } from '../common';
import { documentTitle } from '../document';
import { policyNumber } from '../fields';
import { integrationResult, integrationWriteErrors, sourceVersion, versionQuery } from './common';

/**
 * The insurer's documents (docs/integration.md): PDFs uploaded as they were made, held by the SHA-256 of
 * their bytes and sent to the customer unchanged, and the records that show them: a policy's document
 * packs, billing accounts and their documents. A record refers to a file by its sha256, so upload the
 * file first (a file not held is 422).
 */

/** The SHA-256 of a file's bytes, lower-case hex: the file's id. */
export const fileSha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'Expected 64 lower-case hex digits'));

/**
 * A document's PDF: the file uploaded, and the name the customer saves it as (no slashes or control
 * characters; made a safe `.pdf` name when sent).
 */
export const documentFileRef = named(
  z.strictObject({ sha256: fileSha256, fileName: documentTitle }),
  'IntegrationDocumentFile',
);
export type DocumentFileRef = z.infer<typeof documentFileRef>;

/** The answer to an upload: the file's id and its size in bytes. */
export const uploadedFile = named(
  z.object({ sha256: fileSha256, size: z.number().check(z.int(), z.minimum(1)) }),
  'IntegrationUploadedFile',
);
export type UploadedFile = z.infer<typeof uploadedFile>;

export const uploadFileCall = defineCall({
  id: 'integration.uploadFile',
  summary:
    'Uploads one PDF as its bytes (Content-Type application/pdf, at most INTEGRATION_MAX_FILE_BYTES). 201 with its sha256 when new, 200 when that file is already held (the same bytes are stored once). 400 for an empty body, 413 as soon as the body passes the limit, 415 for another content type or bytes that do not start with %PDF- (code NOT_A_PDF). Nothing is stored on a refusal.',
  service: 'integration',
  method: 'POST',
  path: '/integration/v1/files',
  auth: false,
  clientScope: 'documents.write',
  consumes: 'application/pdf',
  responses: {
    200: uploadedFile,
    201: uploadedFile,
    400: errorEnvelope,
    401: errorEnvelope,
    403: errorEnvelope,
    413: errorEnvelope,
    415: errorEnvelope,
  },
});

/* Policy document packs ------------------------------------------------------------------------- */

const label = z.string().check(z.minLength(1), z.maxLength(200));

/** What a policy document is (the portal lists them by name; kind is kept for the record). */
export const policyDocumentKind = z.enum([
  'schedule',
  'certificate',
  'statement_of_fact',
  'policy_wording',
  'insert',
  'quote_summary',
]);

const packParams = z.strictObject({ policyNumber, packId: opaqueId });

/** `${policyNumber}/${packId}`: one pack of one policy. */
export const documentPackKey = z.string().check(
  z.refine((key) => {
    const [policy, pack, ...rest] = key.split('/');
    return rest.length === 0 && z.safeParse(packParams, { policyNumber: policy, packId: pack }).success;
  }, 'Expected policyNumber/packId'),
);

export const documentPackRecord = named(
  z.strictObject({
    version: sourceVersion,
    title: label,
    createdAt: isoDateTime,
    /** The pack's documents in the order shown; an insert leaflet is a document of kind `insert`. */
    documents: z
      .array(
        z.strictObject({
          documentId: opaqueId,
          kind: policyDocumentKind,
          name: label,
          date: isoDate,
          file: documentFileRef,
        }),
      )
      .check(z.maxLength(100)),
  }),
  'IntegrationDocumentPack',
);
export type DocumentPackRecord = z.infer<typeof documentPackRecord>;

export const putDocumentPackCall = defineCall({
  id: 'integration.putDocumentPack',
  summary:
    "Creates or replaces one document pack of a policy (its documents replace the pack's). The customer is the policy's. 422 when the policy or a file is not held, or a pack or document id is another's.",
  service: 'integration',
  method: 'PUT',
  path: '/integration/v1/policies/:policyNumber/document-packs/:packId',
  auth: false,
  clientScope: 'documents.write',
  params: packParams,
  body: documentPackRecord,
  responses: { 200: integrationResult, ...integrationWriteErrors },
});

export const deleteDocumentPackCall = defineCall({
  id: 'integration.deleteDocumentPack',
  summary: 'Removes one document pack of a policy, with its documents (and any file no longer referred to).',
  service: 'integration',
  method: 'DELETE',
  path: '/integration/v1/policies/:policyNumber/document-packs/:packId',
  auth: false,
  clientScope: 'documents.write',
  params: packParams,
  query: versionQuery,
  responses: { 200: integrationResult, ...integrationWriteErrors },
});

/* Billing accounts and their documents ---------------------------------------------------------- */

export const billingAccountNumber = z
  .string()
  .check(z.regex(/^[A-Z0-9]{4,40}$/, 'Expected 4 to 40 capital letters and digits'));

export const billingAccountRecord = named(
  z.strictObject({
    version: sourceVersion,
    customerId: customerIdValue,
    paymentMethod: z.enum(['DirectDebit', 'Annual']),
    /** Direct debit: the day of the month collected (1 to 28); null otherwise. */
    collectionDay: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(28))),
    /** The last two digits of the bank account; null when not paid by direct debit. */
    bankAccountEnding: z.nullable(z.string().check(z.regex(/^\d{2}$/, 'Expected two digits'))),
    policyNumbers: z.array(policyNumber).check(z.maxLength(100)),
  }),
  'IntegrationBillingAccount',
);
export type BillingAccountRecord = z.infer<typeof billingAccountRecord>;

const accountParams = z.strictObject({ accountNumber: billingAccountNumber });

export const putBillingAccountCall = defineCall({
  id: 'integration.putBillingAccount',
  summary:
    'Creates or updates one billing account of a customer. 422 when the customer is not held, or the account is held for another customer (remove it first).',
  service: 'integration',
  method: 'PUT',
  path: '/integration/v1/billing-accounts/:accountNumber',
  auth: false,
  clientScope: 'billing.write',
  params: accountParams,
  body: billingAccountRecord,
  responses: { 200: integrationResult, ...integrationWriteErrors },
});

export const deleteBillingAccountCall = defineCall({
  id: 'integration.deleteBillingAccount',
  summary: 'Removes one billing account with its documents.',
  service: 'integration',
  method: 'DELETE',
  path: '/integration/v1/billing-accounts/:accountNumber',
  auth: false,
  clientScope: 'billing.write',
  params: accountParams,
  query: versionQuery,
  responses: { 200: integrationResult, ...integrationWriteErrors },
});

/** `${accountNumber}/${documentId}`: one document of one billing account. */
export const billingDocumentKey = z
  .string()
  .check(z.regex(/^[A-Z0-9]{4,40}\/[A-Za-z0-9_-]{1,64}$/, 'Expected accountNumber/documentId'));

export const billingDocumentRecord = named(
  z.strictObject({
    version: sourceVersion,
    kind: z.enum(['statement', 'payment_schedule', 'direct_debit_confirmation', 'annual_bill']),
    name: label,
    date: isoDate,
    /** The policy a schedule or an annual bill is for; null for a statement of the whole account. */
    policyNumber: z.nullable(policyNumber),
    file: documentFileRef,
  }),
  'IntegrationBillingDocument',
);
export type BillingDocumentRecordInput = z.infer<typeof billingDocumentRecord>;

const billingDocumentParams = z.strictObject({ accountNumber: billingAccountNumber, documentId: opaqueId });

export const putBillingDocumentCall = defineCall({
  id: 'integration.putBillingDocument',
  summary:
    "Creates or replaces one document of a billing account (the account's customer's). 422 when the account or the file is not held, or the document id is another account's.",
  service: 'integration',
  method: 'PUT',
  path: '/integration/v1/billing-accounts/:accountNumber/documents/:documentId',
  auth: false,
  clientScope: 'billing.write',
  params: billingDocumentParams,
  body: billingDocumentRecord,
  responses: { 200: integrationResult, ...integrationWriteErrors },
});

export const deleteBillingDocumentCall = defineCall({
  id: 'integration.deleteBillingDocument',
  summary: 'Removes one document of a billing account.',
  service: 'integration',
  method: 'DELETE',
  path: '/integration/v1/billing-accounts/:accountNumber/documents/:documentId',
  auth: false,
  clientScope: 'billing.write',
  params: billingDocumentParams,
  query: versionQuery,
  responses: { 200: integrationResult, ...integrationWriteErrors },
});
