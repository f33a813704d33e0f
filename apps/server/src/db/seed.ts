import { createHash } from 'node:crypto';
import type { ModuleContext, ServiceModule } from '../platform/module';
import { modules } from '../modules';

/**
 * Runs every module's idempotent seed, in module order (customers before the identities that link to
 * them). A module that declares its `seedInputs` is seeded only when its fingerprint (inputs, seed
 * version, applied migrations) differs from the one recorded in seed_state, so most starts skip the demo
 * data entirely, and changes a demo customer made through the portal are not reverted by a restart.
 * `force` runs every seed regardless (tests, or restoring demo data edited by hand).
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
