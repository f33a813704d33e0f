import type {
  AgencyRecordInput,
  CustomerRecordInput,
  PolicyRecordInput,
  QuoteRecordInput,
} from '@portal/contracts/integration/records';
import { demoSeedActor, type DemoContext } from './context';
import { demoCustomers } from './customers';
import { demoAgencies, demoPortfolio, type DemoAgency } from './portfolio';

/** A demo agency as the integration API takes it. */
function agencyRecordOf(a: DemoAgency, version: string): AgencyRecordInput {
  const { agencyId: _key, ...record } = a;
  return { ...record, version };
}

/**
 * Loads the demo customers through the integration API's path, as the insurer's systems would (their
 * agencies first, which the customers refer to), and their first-time preferences. Idempotent: it runs
 * at every start.
 */
export async function seedCustomers(ctx: DemoContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration, customers } = ctx.services;
  for (const agency of demoAgencies)
    await integration.upsert('agency', agency.agencyId, agencyRecordOf(agency, version), demoSeedActor);
  const agencyOf = new Map(demoPortfolio(now).customers.map((c) => [c.customerId, c.agencyId]));
  for (const c of demoCustomers) {
    const record: CustomerRecordInput = {
      version,
      title: c.title,
      firstName: c.firstName,
      lastName: c.lastName,
      dateOfBirth: c.dateOfBirth,
      // A demo customer with no email on record gives one when registering: keep it.
      email: c.email ?? (await customers.get(c.customerId))?.email ?? null,
      mobileNumber: c.mobileNumber,
      landlineNumber: c.landlineNumber,
      address: {
        lineOne: c.addressLineOne,
        lineTwo: c.addressLineTwo,
        lineThree: c.addressLineThree,
        town: c.town,
        county: c.county,
        postCode: c.postCode,
      },
      agencyId: agencyOf.get(c.customerId) ?? null,
    };
    await integration.upsert('customer', c.customerId, record, demoSeedActor);
    await customers.demo.preferences(c.customerId, c.registered?.marketingChosen ?? false);
  }
}

/** The demo notifications and each demo customer's copies, NEW again (a demo shows its modals afresh). */
export async function seedNotifications(ctx: DemoContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration, customers } = ctx.services;
  const portfolio = demoPortfolio(now);
  for (const { notificationId, ...n } of portfolio.notifications) {
    await integration.upsert('notification', notificationId, { ...n, version }, demoSeedActor);
  }
  for (const c of portfolio.customers) {
    for (const notificationId of c.notifications) {
      await integration.upsert(
        'customerNotification',
        `${c.customerId}/${notificationId}`,
        { version },
        demoSeedActor,
      );
    }
    await customers.demo.resetNotifications(c.customerId);
  }
}

/**
 * Loads the demo agencies, policies and quotes, dated from the seed's today, through the integration
 * API's path as the insurer's systems would, the quotes with their documents. After the customers.
 */
export async function seedPolicies(ctx: DemoContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration } = ctx.services;
  const portfolio = demoPortfolio(now);
  for (const { agencyId, ...agency } of portfolio.agencies) {
    await integration.upsert('agency', agencyId, { ...agency, version }, demoSeedActor);
  }
  for (const customer of portfolio.customers) {
    const { customerId } = customer;
    for (const { policyNumber, premiumVisible, annualPremium, ...p } of customer.policies) {
      const record: PolicyRecordInput = {
        ...p,
        version,
        customerId,
        annualPremium: { visible: premiumVisible, value: annualPremium },
      };
      await integration.upsert('policy', policyNumber, record, demoSeedActor);
    }
    for (const { quoteNumber, ...quote } of customer.quotes) {
      const record: QuoteRecordInput = { ...quote, version, customerId };
      // Its summary is demo data: no file, so it is drawn when asked for (the API requires a file).
      const documents = [
        {
          documentId: `${quoteNumber}-summary`,
          name: 'Quote summary',
          date: version.slice(0, 10),
          file: null,
        },
      ];
      const withDocuments = { ...record, documents };
      await integration.upsert('quote', quoteNumber, withDocuments, demoSeedActor);
    }
  }
}

/** How long before today the demo accounts were registered. */
const DEMO_ACCOUNT_AGE_DAYS = 400;

/**
 * The sign-in accounts of the demo customers marked `registered`: ACTIVE, with their demo password and
 * factors for their numbers, registered long before today, as the demo's story has it (no demo account is
 * a new registration: the passkey offer after registration is for those only). Unregistered demo customers
 * get an account only when they register.
 */
export async function seedAccounts(ctx: DemoContext): Promise<void> {
  const registeredAt = new Date(ctx.clock.now().getTime() - DEMO_ACCOUNT_AGE_DAYS * 86_400_000);
  for (const customer of demoCustomers) {
    if (!customer.registered || !customer.email) continue;
    await ctx.services.identity.createSeededAccount({
      customerId: customer.customerId,
      login: customer.email,
      password: customer.registered.password,
      firstName: customer.firstName,
      lastName: customer.lastName,
      phoneNumbers: [customer.mobileNumber, customer.landlineNumber],
      registeredAt,
    });
  }
}
