import { createHash } from 'node:crypto';
import type { IntegrationActor } from '../modules/integration';
import { moduleContext, modules } from '../modules';
import type { AnyModule, ModuleContext } from '../platform/module';
import { HttpError } from '../platform/errors';
import { demoAgencies, DEMO_SEED_VERSION, demoSeedInputs, seedDemo, type DemoContext } from './demo';

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

/** One seed as seedAll runs it: a module's own, or the demo data. */
interface Seed {
  name: string;
  run(): Promise<void>;
  inputs?: () => unknown;
  version?: number;
}

/**
 * Every module's idempotent seed, in map order (content, the OpenID keys), then the data: the demo
 * customers and everything of theirs (db/demo/), or without demo data (production, unless
 * SEED_DEMO_DATA=true) the insurer's reference agencies only.
 */
function seedsOf(ctx: ModuleContext, list: readonly AnyModule[]): Seed[] {
  const seeds: Seed[] = list.flatMap((mod) => {
    if (!mod.seed) return [];
    const view = moduleContext(mod, ctx);
    return [
      {
        name: mod.name,
        run: () => mod.seed!(view),
        ...(mod.seedInputs ? { inputs: mod.seedInputs } : {}),
        ...(mod.seedVersion ? { version: mod.seedVersion } : {}),
      },
    ];
  });
  if (list !== modules) return seeds;
  if (!ctx.config.seedDemoData) {
    return [...seeds, { name: 'reference-agencies', run: () => seedReferenceAgencies(ctx) }];
  }
  return [
    ...seeds,
    {
      name: 'demo',
      run: () => seedDemo(ctx as DemoContext),
      inputs: demoSeedInputs,
      version: DEMO_SEED_VERSION,
    },
  ];
}

/**
 * Runs every seed (seedsOf), in order. A seed that declares its inputs is run only when its fingerprint
 * (inputs, seed version, applied migrations) differs from the one recorded in seed_state, so most starts
 * skip the demo data entirely, and changes a demo customer made through the portal are not reverted by a
 * restart. `force` runs every seed regardless (tests, or restoring demo data edited by hand). `modules`
 * replaces the modules' seeds (and leaves out the data) for tests of this function.
 */
export async function seedAll(
  ctx: ModuleContext,
  options: { force?: boolean; modules?: readonly AnyModule[] } = {},
): Promise<{ ran: string[]; skipped: string[] }> {
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
  for (const seed of seedsOf(ctx, options.modules ?? modules)) {
    if (!seed.inputs) {
      await seed.run();
      ran.push(seed.name);
      continue;
    }
    if (keys.has(seed.name)) throw new Error(`Two seeds named ${seed.name} both declare inputs`);
    keys.add(seed.name);
    const fingerprint = seedFingerprint(seed, migrations);
    if (!options.force && recorded.get(seed.name) === fingerprint) {
      skipped.push(seed.name);
      continue;
    }
    await seed.run();
    await ctx.db.query(
      `INSERT INTO seed_state (seed, fingerprint, seeded_at) VALUES ($1, $2, $3)
       ON CONFLICT (seed) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, seeded_at = EXCLUDED.seeded_at`,
      [seed.name, fingerprint, ctx.clock.now()],
    );
    ran.push(seed.name);
  }
  return { ran, skipped };
}

function seedFingerprint(seed: Seed, migrations: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify({ version: seed.version ?? 1, migrations, inputs: seed.inputs?.() }))
    .digest('base64url');
}
