import { z } from 'zod/mini';
import { defineCall, named } from './call';
import {
  binaryBody,
  customerCallErrors,
  customerIdValue,
  isoDate,
  isoDateTime,
  opaqueId,
  pageOf,
  paginationQuery,
} from './common';
import { policyNumber } from './policy';

/**
 * Document service: billing documents, policy document packs and quote documents, as lists and as PDFs
 * (spec customer-data §3, §7, §8). Every call needs the bearer token; a document, policy or customer id
 * that is not the token's customer's is 404.
 */

/** The name the SPA saves a PDF under when the response names none (spec §9). */
export const DEFAULT_DOWNLOAD_FILENAME = 'nfum-file.pdf';

export const documentSummary = named(
  z.object({
    id: opaqueId,
    /** Shown on the document's button and used for the download name. */
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    date: isoDate,
    /**
     * Not opened by the customer yet, on any device (issue 40): the pages mark it New. Opening or
     * downloading it clears it. Absent where the service does not say.
     */
    isNew: z.optional(z.boolean()),
  }),
  'DocumentSummary',
);
export type DocumentSummary = z.infer<typeof documentSummary>;

/** Billing documents of one billing account. */
export const billingAccountDocuments = z.object({
  accountNumber: z.string().check(z.minLength(1), z.maxLength(40)),
  documentSummaries: z.array(documentSummary),
});

/**
 * Spec "Billing document list page". Paging runs over documents (newest first); the documents of a page
 * are then grouped by billing account, so an account can continue onto the next page.
 */
export const billingDocumentPage = named(pageOf(billingAccountDocuments), 'BillingDocumentPage');
export type BillingDocumentPage = z.infer<typeof billingDocumentPage>;

/** One document pack of a policy (a renewal pack, a mid-term change, ...). */
export const policyDocumentPack = named(
  z.object({
    title: z.string().check(z.minLength(1), z.maxLength(200)),
    createDate: isoDateTime,
    documentSummaries: z.array(documentSummary),
  }),
  'PolicyDocumentPack',
);
export type PolicyDocumentPack = z.infer<typeof policyDocumentPack>;

/** Spec "Policy document list", paged over packs (newest first) like the billing list. */
export const policyDocumentPage = named(pageOf(policyDocumentPack), 'PolicyDocumentPage');
export type PolicyDocumentPage = z.infer<typeof policyDocumentPage>;

/**
 * A document title in the quote PDF path, used as the download name: no path separators, no control
 * characters, at most 200 characters.
 */
export const documentTitle = z.string().check(
  z.minLength(1),
  z.maxLength(200),
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  z.regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'A title has no slashes or control characters'),
);

/** How many of the customer's documents they have not opened yet (issue 40): the menu says so. */
export const newDocumentCounts = named(
  z.object({
    /** Billing documents (Bills and payments). */
    bills: z.number().check(z.int(), z.minimum(0)),
    /** Documents of their policies' packs (each policy's documents page, under Your policies). */
    policyDocuments: z.number().check(z.int(), z.minimum(0)),
    /** The same by policy number, for the policies that have any (the dashboard's policy cards). */
    byPolicy: z.record(z.string(), z.number().check(z.int(), z.minimum(1))),
  }),
  'NewDocumentCounts',
);
export type NewDocumentCounts = z.infer<typeof newDocumentCounts>;

const billingParams = z.strictObject({ customerId: customerIdValue });
const policyParams = z.strictObject({ customerId: customerIdValue, policyId: policyNumber });

export const listBillingDocumentsCall = defineCall({
  id: 'document.billingList',
  summary:
    "One page of the customer's billing documents, grouped by billing account. 404 when the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/document/billing/:customerId',
  auth: true,
  params: billingParams,
  query: paginationQuery,
  responses: { 200: billingDocumentPage, ...customerCallErrors },
});

export const listPolicyDocumentsCall = defineCall({
  id: 'document.policyList',
  summary:
    "One page of a policy's document packs. 404 when the policy is not the customer's or the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/document/policy/:customerId/:policyId',
  auth: true,
  params: policyParams,
  query: paginationQuery,
  responses: { 200: policyDocumentPage, ...customerCallErrors },
});

export const getBillingDocumentPdfCall = defineCall({
  id: 'document.billingPdf',
  summary:
    "One billing document as a PDF, named by Content-Disposition. 404 when the document is not the customer's or the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/document/billing/:customerId/:docId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, docId: opaqueId }),
  produces: 'application/pdf',
  responses: { 200: binaryBody, ...customerCallErrors },
});

export const getPolicyDocumentPdfCall = defineCall({
  id: 'document.policyPdf',
  summary:
    "One policy document as a PDF, named by Content-Disposition. 404 when the document is not that policy's, the policy is not the customer's, or the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/document/policy/:customerId/:policyId/:docId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, policyId: policyNumber, docId: opaqueId }),
  produces: 'application/pdf',
  responses: { 200: binaryBody, ...customerCallErrors },
});

export const getQuoteDocumentPdfCall = defineCall({
  id: 'document.quotePdf',
  summary:
    "One quote document as a PDF; `title` is the download name the SPA suggests (sanitised into Content-Disposition). 404 when the document is not that quote's, the quote is not the customer's, or the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/document/quote/:customerId/:policyId/:docId/:title',
  auth: true,
  params: z.strictObject({
    customerId: customerIdValue,
    policyId: policyNumber,
    docId: opaqueId,
    title: documentTitle,
  }),
  produces: 'application/pdf',
  responses: { 200: binaryBody, ...customerCallErrors },
});

/**
 * A safe PDF file name from a document title: characters outside letters, digits, space, `.`, `_`, `(`,
 * `)` and `-` become `-`, runs of them (and spaces around them) collapse, and `.pdf` is added when
 * missing. Empty -> the default name.
 */
export function pdfFileName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._()-]+/g, '-')
    .replace(/\s*-[-\s]*/g, '-')
    .replace(/\s{2,}/g, ' ')
    .replace(/^[\s.-]+|[\s.-]+$/g, '')
    .slice(0, 150);
  if (base === '') return DEFAULT_DOWNLOAD_FILENAME;
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}

/** `attachment; filename="..."; filename*=UTF-8''...` for a PDF response. */
export function contentDispositionFor(title: string): string {
  const name = pdfFileName(title);
  return `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The file name a response names in Content-Disposition (`filename*` preferred over `filename`), made
 * safe; the default nfum-file.pdf when there is none.
 */
export function fileNameFromContentDisposition(header: string | null | undefined): string {
  if (!header) return DEFAULT_DOWNLOAD_FILENAME;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return pdfFileName(decodeURIComponent(extended[1].trim()));
    } catch {
      // A malformed percent-encoding falls through to the plain filename.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = plain?.[1] ?? plain?.[2]?.trim();
  return name ? pdfFileName(name) : DEFAULT_DOWNLOAD_FILENAME;
}

export const newDocumentCountsCall = defineCall({
  id: 'document.newCounts',
  summary:
    "How many of the customer's bills and policy documents they have not opened yet, on any device. 404 when the customer id is not the token's.",
  service: 'document',
  method: 'GET',
  path: '/api/v1/document/new/:customerId',
  auth: true,
  params: billingParams,
  responses: { 200: newDocumentCounts, ...customerCallErrors },
});
