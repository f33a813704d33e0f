import { createHash } from 'node:crypto';
import type { ModuleContext, ServiceModule } from '../platform/module';
import { modules } from '../modules';
import { accountModule } from '../modules/account';
import { documentModule } from '../modules/document';
import { identityModule } from '../modules/identity';
import { policyModule } from '../modules/policy';
import type { IntegrationActor } from '../modules/integration/versioned';
import { HttpError } from '../platform/errors';
import { demoAgencies } from './demo-portfolio';

/** Who writes the insurer's reference data when no demo data is seeded. */
const referenceSeedActor: IntegrationActor = { clientId: 'reference-seed', correlationId: null };

/**
 * The reference agencies, at version 0 (the lowest there is): written only when no version of an agency
 * is held, so a restart never overwrites what the insurer's systems loaded.
 */
async function seedReferenceAgencies(ctx: ModuleContext): Promise<void> {
  for (const { agencyId, ...agency } of demoAgencies) {
    try {
      await ctx.services.integration.upsert(
        'agency',
        agencyId,
        { ...agency, version: 0 },
        referenceSeedActor,
      );
    } catch (error) {
      // 409: a version is held; 422: the insurer's own direct line is held under another id.
      if (!(error instanceof HttpError && (error.statusCode === 409 || error.statusCode === 422)))
        throw error;
    }
  }
}

/**
 * The seeds that write the demo customers (whose passwords the README publishes) and their data. Without
 * demo data (production, unless SEED_DEMO_DATA=true) they are skipped, and a module whose seed also writes
 * the insurer's reference data seeds only that: the policy module's agencies. Content and the OpenID keys
 * seed as always.
 */
const demoSeeds = new Map<ServiceModule, ((ctx: ModuleContext) => Promise<void>) | null>([
  [accountModule, null],
  [identityModule, null],
  [documentModule, null],
  [policyModule, seedReferenceAgencies],
]);

/**
 * Runs every module's idempotent seed, in module order (customers before the identities that link to
 * them). A module that declares its `seedInputs` is seeded only when its fingerprint (inputs, seed
 * version, applied migrations) differs from the one recorded in seed_state, so most starts skip the demo
 * data entirely, and changes a demo customer made through the portal are not reverted by a restart.
 * `force` runs every seed regardless (tests, or restoring demo data edited by hand). Without
 * `config.seedDemoData` the demo seeds are left out (see demoSeeds).
 */
export async function seedAll(
  ctx: ModuleContext,
  options: { force?: boolean; modules?: readonly ServiceModule[] } = {},
): Promise<{ ran: string[]; skipped: string[] }> {
  const list = options.modules ?? modules;
  const recorded = new Map(
    (
      await ctx.db.query<{ seed: string; fingerprint: string }>('SELECT seed, fingerprint FROM seed_state')
    ).rows.map((r) => [r.seed, r.fingerprint]),
  );
  const migrations = (
    await ctx.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id')
  ).rows.map((r) => r.id);
  const ran: string[] = [];
  const skipped: string[] = [];
  const keys = new Set<string>();
  for (const mod of list) {
    if (!mod.seed) continue;
    if (!ctx.config.seedDemoData && demoSeeds.has(mod)) {
      await demoSeeds.get(mod)?.(ctx);
      skipped.push(mod.name);
      continue;
    }
    if (!mod.seedInputs) {
      await mod.seed(ctx);
      ran.push(mod.name);
      continue;
    }
    // A module name may be shared (identity and oidc mount under one base URL); seed keys may not.
    if (keys.has(mod.name)) throw new Error(`Two modules named ${mod.name} both declare seedInputs`);
    keys.add(mod.name);
    const fingerprint = seedFingerprint(mod, migrations);
    if (!options.force && recorded.get(mod.name) === fingerprint) {
      skipped.push(mod.name);
      continue;
    }
    await mod.seed(ctx);
    await ctx.db.query(
      `INSERT INTO seed_state (seed, fingerprint, seeded_at) VALUES ($1, $2, $3)
       ON CONFLICT (seed) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, seeded_at = EXCLUDED.seeded_at`,
      [mod.name, fingerprint, ctx.clock.now()],
    );
    ran.push(mod.name);
  }
  return { ran, skipped };
}

function seedFingerprint(mod: ServiceModule, migrations: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify({ version: mod.seedVersion ?? 1, migrations, inputs: mod.seedInputs?.() }))
    .digest('base64url');
}
