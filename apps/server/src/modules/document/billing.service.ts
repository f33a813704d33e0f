import { pdfFileName, type BillingDocumentPage } from '@portal/contracts/document';
import type { FastifyReply } from 'fastify';
import { notFound } from '../../platform/errors';
import type { DocumentContext } from './context';
import type { PdfContent } from '../../platform/pdf';
import type { PdfRenditions } from '../../platform/pdf-renditions';
import type { Sent } from '../../platform/route';
import { findBillingDocument, listBillingDocuments, type BillingDocumentRecord } from './billing.repository';
import type { PolicyBillingTerms } from '../policy';
import { markSeen } from './seen.repository';
import { sendStoredFile } from './stored-file';

import { longDate, pounds } from './document-format';

/** Monthly instalments: the premium over 12 in pence, any rounding difference on the first. */
export function instalments(annualPremium: number): { first: number; rest: number } {
  const pence = Math.round(annualPremium * 100);
  const rest = Math.floor(pence / 12);
  return { first: (pence - rest * 11) / 100, rest: rest / 100 };
}

const addMonths = (iso: string, months: number, day?: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, day ?? d.getUTCDate()));
  return target.toISOString().slice(0, 10);
};

function billingPdf(
  doc: BillingDocumentRecord,
  policies: PolicyBillingTerms[],
  addressee: string[],
): PdfContent {
  const { account } = doc;
  const base = { reference: `Billing account ${account.accountNumber}`, addressee, date: longDate(doc.date) };
  const policy = policies.find((p) => p.policyNumber === doc.policyNumber);
  const day = account.collectionDay ?? 1;
  switch (doc.kind) {
    case 'statement': {
      const monthly = policies.filter((p) => p.paymentFrequency === 'Monthly');
      const rows = monthly.map((p): [string, string] => [
        `${p.productName} ${p.policyNumber}`,
        pounds(instalments(p.annualPremium).rest),
      ]);
      const total = monthly.reduce((sum, p) => sum + instalments(p.annualPremium).rest, 0);
      return {
        ...base,
        title: doc.name,
        sections: [
          { heading: 'Your payments this month', rows: [...rows, ['Total', pounds(total)]] },
          {
            heading: 'How you pay',
            rows: [
              ['Payment method', 'Direct Debit'],
              ['Collected on', `${longDate(addMonths(doc.date, 0, day))}`],
              ['Bank account', `ending ${account.bankAccountEnding ?? '--'}`],
            ],
          },
        ],
        notes: ['You do not need to do anything: we collect this amount by Direct Debit.'],
      };
    }
    case 'payment_schedule': {
      if (!policy) throw notFound('There is no such document.');
      const { first, rest } = instalments(policy.annualPremium);
      const rows = Array.from({ length: 12 }, (_, i): [string, string] => [
        longDate(addMonths(policy.startDate, i, day)),
        pounds(i === 0 ? first : rest),
      ]);
      return {
        ...base,
        title: 'Your payment schedule',
        sections: [
          {
            heading: 'Your policy',
            rows: [
              ['Policy number', policy.policyNumber],
              ['Product', policy.productName],
              ['Annual premium', pounds(policy.annualPremium)],
            ],
          },
          { heading: 'Your instalments', rows },
        ],
        notes: ['Each payment is collected by Direct Debit on or just after the date shown.'],
      };
    }
    case 'direct_debit_confirmation':
      return {
        ...base,
        title: 'Confirmation of your Direct Debit instruction',
        sections: [
          {
            heading: 'Your Direct Debit',
            rows: [
              ['Account holder', addressee[0] ?? ''],
              ['Bank account', `ending ${account.bankAccountEnding ?? '--'}`],
              ['Collection day', `${day} of each month`],
              ['Policies', account.policyNumbers.join(', ')],
              ['Service user number', '123456'],
            ],
          },
        ],
        notes: [
          'The Direct Debit Guarantee: if there are any changes to the amount, date or frequency of your Direct Debit we will notify you in advance. If an error is made in the payment of your Direct Debit, you are entitled to a full and immediate refund from your bank.',
        ],
      };
    case 'annual_bill':
      if (!policy) throw notFound('There is no such document.');
      return {
        ...base,
        title: doc.name,
        sections: [
          {
            heading: 'Your bill',
            rows: [
              ['Policy number', policy.policyNumber],
              ['Product', policy.productName],
              ['Period of cover', `${longDate(policy.startDate)} to ${longDate(policy.renewalDate)}`],
              [
                'Amount due',
                policy.annualPremium === 0 ? 'Included in your package' : pounds(policy.annualPremium),
              ],
              ['Please pay by', longDate(policy.startDate)],
            ],
          },
        ],
        notes: ['Pay online, by phone on 0800 123 4567, or by cheque payable to Meridian Mutual.'],
      };
  }
}

export function createBillingService(
  ctx: DocumentContext,
  addressee: (customerId: string) => Promise<string[]>,
  pdfs: PdfRenditions,
) {
  return {
    /** Spec "Billing document list page": documents newest first, each page grouped by account. */
    async billingDocuments(customerId: string, page: number, pageSize: number): Promise<BillingDocumentPage> {
      const { rows, total } = await listBillingDocuments(ctx.db, customerId, page, pageSize);
      const groups: BillingDocumentPage['data'] = [];
      for (const row of rows) {
        let group = groups.find((g) => g.accountNumber === row.accountNumber);
        if (!group) {
          group = { accountNumber: row.accountNumber, documentSummaries: [] };
          groups.push(group);
        }
        group.documentSummaries.push({ id: row.id, name: row.name, date: row.date, isNew: row.isNew });
      }
      return {
        currentPage: page,
        lastPage: Math.max(1, Math.ceil(total / pageSize)),
        pageSize,
        totalRecords: total,
        data: groups,
      };
    },

    /** `byCustomer` false: the contact centre's read-only view (issue 41), which leaves it New. */
    async sendBillingDocument(
      reply: FastifyReply,
      customerId: string,
      docId: string,
      byCustomer = true,
    ): Promise<Sent> {
      const doc = await findBillingDocument(ctx.db, customerId, docId);
      if (!doc) throw notFound('There is no such document.');
      // Opened: no longer New, on any device.
      if (byCustomer) await markSeen(ctx.db, customerId, docId, ctx.clock.now());
      if (doc.file) return sendStoredFile(ctx.db, reply, doc.file);
      // What the bill shows of the policies it names (a statement: the account's; a schedule or a bill: its
      // own; a Direct Debit confirmation: none), in one read beside the addressee.
      const named =
        doc.kind === 'statement'
          ? doc.account.policyNumbers
          : doc.kind === 'direct_debit_confirmation' || doc.policyNumber === null
            ? []
            : [doc.policyNumber];
      const [policies, lines] = await Promise.all([
        ctx.services.policies.billingTerms(customerId, named),
        addressee(customerId),
      ]);
      const content = billingPdf(doc, policies, lines);
      return pdfs.send(reply, pdfFileName(`${doc.name} ${doc.account.accountNumber}`), content);
    },
  };
}
