import type { Policy } from '@portal/contracts/policy';
import type { PolicyDocumentTerms } from '../policy';
import { pdfFileName, type PolicyDocumentPage } from '@portal/contracts/document';
import type { FastifyReply } from 'fastify';
import { notFound } from '../../platform/errors';
import type { DocumentContext } from './context';
import type { PdfContent } from '../../platform/pdf';
import { createPdfRenditions } from '../../platform/pdf-renditions';
import type { Sent } from '../../platform/route';
import { createBillingService } from './billing.service';
import { longDate, pounds } from './document-format';
import {
  findPolicyDocument,
  findQuoteDocument,
  listPolicyPacks,
  type DocumentKind,
  type DocumentRecord,
} from './document.repository';
import { countNotSeen, markSeen } from './seen.repository';
import { sendStoredFile } from './stored-file';

/** The kinds of policy document that list the policy's cover (the others need no lines of business). */
const LISTS_COVER: ReadonlySet<DocumentKind> = new Set(['schedule']);

/** What each kind of policy document says: the customer, the policy, its cover, dates and premium. */
function policyPdf(doc: DocumentRecord, policy: PolicyDocumentTerms, addressee: string[]): PdfContent {
  const holder = policy.policyHolders.find((h) => h.primary)?.name ?? addressee[0] ?? '';
  const policyRows: Array<[string, string]> = [
    ['Policy number', policy.policyNumber],
    ['Product', `${policy.productName} (${policy.productType})`],
    ['Policyholder', policy.policyHolders.map((h) => h.name).join(', ')],
    ['Period of cover', `${longDate(policy.startDate)} to ${longDate(policy.renewalDate)}`],
    [
      'Annual premium',
      policy.annualPremium === 0 ? 'Included in your package' : pounds(policy.annualPremium),
    ],
    ['Payment', policy.paymentFrequency === 'Monthly' ? 'Monthly by direct debit' : 'Annually'],
  ];
  const cover = (policy.linesOfBusiness as Policy['linesOfBusiness']).flatMap((line) =>
    line.risks.map((risk): [string, string] => [
      risk.registration ? `${risk.displayName} (${risk.registration})` : risk.displayName,
      [line.coverLevel, ...risk.covers.map((c) => c.type)].filter(Boolean).join(', '),
    ]),
  );
  const base = { reference: `Policy number ${policy.policyNumber}`, addressee, date: longDate(doc.date) };
  switch (doc.kind) {
    case 'certificate':
      return {
        ...base,
        title: 'Certificate of motor insurance',
        sections: [
          {
            heading: 'Vehicles',
            rows: policy.vehicleReg.map((reg, i): [string, string] => [`Vehicle ${i + 1}`, reg]),
          },
          { heading: 'Policyholder', rows: [['Name', holder], ...policyRows.slice(0, 1), policyRows[3]!] },
        ],
        notes: [
          'I hereby certify that the policy to which this certificate relates satisfies the requirements of the relevant law applicable in Great Britain, Northern Ireland, the Isle of Man, the Island of Guernsey, the Island of Jersey and the Island of Alderney.',
        ],
      };
    case 'statement_of_fact':
      return {
        ...base,
        title: 'Statement of fact',
        sections: [
          {
            heading: 'About you',
            rows: [
              ['Name', holder],
              ['Address', addressee.slice(1).join(', ')],
            ],
          },
          { heading: 'Your policy', rows: policyRows },
        ],
        notes: [
          'This is what you told us. Please check it carefully and tell us straight away if anything is wrong or changes: it could affect your cover.',
        ],
      };
    case 'schedule':
      return {
        ...base,
        title: `${policy.policyType} schedule`,
        sections: [
          { heading: 'Your policy', rows: policyRows },
          { heading: 'What you are covered for', rows: cover },
        ],
        notes: ['Please read this schedule with your policy wording. Keep it somewhere safe.'],
      };
    default:
      return {
        ...base,
        title: doc.name,
        sections: [{ heading: 'Your policy', rows: policyRows.slice(0, 3) }],
        notes: [
          `This document explains the terms of your ${policy.productName.toLowerCase()}: what is covered, what is not, and how to make a claim.`,
        ],
      };
  }
}

export function createDocumentsService(ctx: DocumentContext) {
  const pdfs = createPdfRenditions(ctx);
  const addressee = async (customerId: string): Promise<string[]> => {
    const found = await ctx.services.customers.withAddress(customerId);
    if (!found) throw notFound('There is no such customer.');
    const { customer, address } = found;
    return [
      `${customer.firstName} ${customer.lastName}`,
      address.addressLineOne,
      address.addressLineTwo,
      address.addressLineThree,
      address.town,
      address.county,
      address.postCode,
    ].filter((line) => line.trim() !== '');
  };

  return {
    ...createBillingService(ctx, addressee, pdfs),

    /** How many of the customer's documents they have not opened yet (the menu's New counts). */
    newDocumentCounts: (customerId: string) => countNotSeen(ctx.db, customerId),

    async policyDocuments(
      customerId: string,
      policyNumber: string,
      page: number,
      pageSize: number,
    ): Promise<PolicyDocumentPage> {
      const found = await listPolicyPacks(ctx.db, customerId, policyNumber, page, pageSize);
      // No packs: the policy may have none yet, or not be theirs (the policy module knows which).
      if (found.total === 0 && !(await ctx.services.policies.heldFor(customerId, policyNumber))) {
        throw notFound('There is no such policy.');
      }
      return {
        currentPage: page,
        lastPage: Math.max(1, Math.ceil(found.total / pageSize)),
        pageSize,
        totalRecords: found.total,
        data: found.packs.map((p) => ({
          title: p.title,
          createDate: p.createdAt,
          documentSummaries: p.documents,
        })),
      };
    },

    async sendPolicyDocument(
      reply: FastifyReply,
      customerId: string,
      policyNumber: string,
      docId: string,
      /** False for the contact centre's read-only view (issue 41): the document stays New. */
      byCustomer = true,
    ): Promise<Sent> {
      const doc = await findPolicyDocument(ctx.db, customerId, policyNumber, docId);
      if (!doc) throw notFound('There is no such document.');
      if (byCustomer) await markSeen(ctx.db, customerId, docId, ctx.clock.now());
      if (doc.file) return sendStoredFile(ctx.db, reply, doc.file);
      const [policy, lines] = await Promise.all([
        ctx.services.policies.documentTerms(customerId, policyNumber, LISTS_COVER.has(doc.kind)),
        addressee(customerId),
      ]);
      const content = policyPdf(doc, policy, lines);
      return pdfs.send(reply, pdfFileName(`${doc.name} ${policyNumber}`), content);
    },

    async sendQuoteDocument(
      reply: FastifyReply,
      customerId: string,
      quoteNumber: string,
      docId: string,
      title: string,
    ): Promise<Sent> {
      const doc = await findQuoteDocument(ctx.db, customerId, quoteNumber, docId);
      if (!doc) throw notFound('There is no such document.');
      await markSeen(ctx.db, customerId, docId, ctx.clock.now());
      if (doc.file) return sendStoredFile(ctx.db, reply, doc.file);
      // A summary drawn here from the quote as the policy module holds it.
      const quote = await ctx.services.policies.quote(customerId, quoteNumber);
      if (!quote) throw notFound('There is no such document.');
      const lines = await addressee(customerId);
      return pdfs.send(reply, pdfFileName(title), {
        title: 'Your quote summary',
        reference: `Quote number ${quote.quoteNumber}`,
        addressee: lines,
        date: longDate(doc.date),
        sections: [
          {
            heading: 'Your quote',
            rows: [
              ['Quote number', quote.quoteNumber],
              ['Product', `${quote.productName} (${quote.productType})`],
              ['Cover would start', longDate(quote.startDate)],
              ['Annual premium', pounds(quote.premium)],
            ],
          },
        ],
        notes: ['This quote is valid for 30 days from the date above. Call us or your agency to take it up.'],
      });
    },
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
