import type { DemoContext } from './context';
import { seedDemoActivity } from './activity';
import { seedBilling } from './billing';
import { demoCustomers } from './customers';
import { seedDocuments } from './documents';
import { seedMessages } from './messages';
import { seedAccounts, seedCustomers, seedNotifications, seedPolicies } from './records';

export type { DemoContext } from './context';
export { demoAgencies } from './portfolio';

/**
 * The demo data (the README's demo customers): their records, policies, quotes, documents, bills,
 * notifications and messages loaded through the integration service as the insurer's systems load
 * theirs, each record in a transaction of its own; their sign-in accounts and chosen preferences through
 * the modules' own demo calls; one customer's account activity. Dated from today; idempotent (a later day loads newer
 * versions of the same records).
 */
export async function seedDemo(ctx: DemoContext): Promise<void> {
  await seedCustomers(ctx);
  await seedNotifications(ctx);
  await seedPolicies(ctx);
  await seedBilling(ctx);
  await seedDocuments(ctx);
  // Messages from the insurer, some linking to the policies and documents above (issue 40 point 6).
  await seedMessages(ctx);
  await seedAccounts(ctx);
  // The demo's own loads tell no one: a demo customer would be emailed of every document each new day.
  await ctx.services.documents.discardDemoNotices(demoCustomers.map((c) => c.customerId));
  // All but each customer's newest documents opened: those show New (issue 40).
  for (const { customerId } of demoCustomers) await ctx.services.documents.markDemoSeen(customerId);
  // The activity history of one demo customer (decision 027), once.
  await seedDemoActivity(ctx);
}

/** What the demo seed writes from: it runs again when these change (a new day moves every date). */
export const demoSeedInputs = () => ({ demoCustomers, today: new Date().toISOString().slice(0, 10) });

/** Bump when what the demo seed writes changes while its inputs do not. */
export const DEMO_SEED_VERSION = 8;
