import type { BillingAccountRow, BillingDocumentInput } from '../../modules/document';
import { demoSeedActor, type DemoContext } from './context';
import { addDays, addMonths, monthName } from './dates';
import { demoPortfolio, type DemoPolicy } from './portfolio';

type DemoBillingAccount = Omit<BillingAccountRow, 'customerId'> & {
  documents: Array<BillingDocumentInput & { id: string }>;
};

/**
 * The demo billing accounts of one customer: a Direct Debit account for the policies paid monthly (the
 * instruction's confirmation, a payment schedule per policy and a statement for every month of the last
 * year), and an annual account with a bill per policy paid once a year. Dated from today.
 */
function demoBilling(customerId: string, policies: DemoPolicy[], today: Date): DemoBillingAccount[] {
  const todayIso = today.toISOString().slice(0, 10);
  const digits = customerId.replace(/\D/g, '');
  const accounts: DemoBillingAccount[] = [];
  const monthly = policies.filter((p) => p.paymentFrequency === 'Monthly' && p.status !== 'Upcoming');
  if (monthly.length > 0) {
    const accountNumber = `BA${digits}1`;
    const id = (suffix: string) => `${accountNumber.toLowerCase()}-${suffix}`;
    const firstStart = monthly.map((p) => p.startDate).sort()[0]!;
    const documents: DemoBillingAccount['documents'] = [
      {
        id: id('dd'),
        kind: 'direct_debit_confirmation',
        name: 'Direct Debit confirmation',
        date: firstStart,
        policyNumber: null,
        file: null,
      },
      ...monthly.map((p) => ({
        id: id(`schedule-${p.policyNumber.toLowerCase()}`),
        kind: 'payment_schedule' as const,
        name: `Payment schedule for ${p.productName}`,
        date: p.startDate,
        policyNumber: p.policyNumber,
        file: null,
      })),
    ];
    for (let i = 0; i < 12; i += 1) {
      const month = addMonths(todayIso, -i, 1);
      if (month < firstStart.slice(0, 8) + '01') break;
      documents.push({
        id: id(`statement-${month.slice(0, 7)}`),
        kind: 'statement',
        name: `Statement for ${monthName(month)}`,
        date: month,
        policyNumber: null,
        file: null,
      });
    }
    accounts.push({
      accountNumber,
      paymentMethod: 'DirectDebit',
      collectionDay: 1 + (Number(digits) % 28),
      bankAccountEnding: digits.slice(-2).padStart(2, '0'),
      policyNumbers: monthly.map((p) => p.policyNumber),
      documents,
    });
  }
  const annual = policies.filter((p) => p.paymentFrequency === 'Annual');
  if (annual.length > 0) {
    const accountNumber = `BA${digits}2`;
    accounts.push({
      accountNumber,
      paymentMethod: 'Annual',
      collectionDay: null,
      bankAccountEnding: null,
      policyNumbers: annual.map((p) => p.policyNumber),
      documents: annual.map((p) => ({
        id: `${accountNumber.toLowerCase()}-bill-${p.policyNumber.toLowerCase()}`,
        kind: 'annual_bill' as const,
        name: `Your bill for ${p.productName}`,
        // Sent three weeks before cover starts (today, for cover starting sooner than that).
        date: [addDays(p.startDate, -21), todayIso].sort()[0]!,
        policyNumber: p.policyNumber,
        file: null,
      })),
    });
  }
  return accounts;
}

/**
 * The demo billing accounts and their documents, written through the integration API's records as the
 * insurer's systems would load them (version: the seed's now); those the demo no longer makes (last
 * year's oldest statement) removed the same way.
 */
export async function seedBilling(ctx: DemoContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration, documents } = ctx.services;
  for (const c of demoPortfolio(now).customers) {
    const accounts = demoBilling(c.customerId, c.policies, now);
    for (const { documents: docs, accountNumber, ...account } of accounts) {
      const record = { version, customerId: c.customerId, ...account };
      await integration.upsert('billingAccount', accountNumber, record, demoSeedActor);
      for (const { id, ...doc } of docs) {
        const docRecord = { version, ...doc };
        await integration.upsert('billingDocument', `${accountNumber}/${id}`, docRecord, demoSeedActor);
      }
      for (const id of await documents.billingDocumentIds(accountNumber)) {
        if (docs.some((d) => d.id === id)) continue;
        await integration.remove('billingDocument', `${accountNumber}/${id}`, version, demoSeedActor);
      }
    }
    for (const accountNumber of await documents.accountNumbers(c.customerId)) {
      if (accounts.some((a) => a.accountNumber === accountNumber)) continue;
      await integration.remove('billingAccount', accountNumber, version, demoSeedActor);
    }
  }
}
