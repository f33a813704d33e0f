import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/helpers';
import { loadConfig } from '../config';
import { createServices } from '../modules';
import { ManualClock } from '../platform/clock';
import type { Db } from '../platform/db';
import type { ModuleContext, ServiceModule } from '../platform/module';
import type { Services } from '../platform/services';
import { seedAll } from './seed';

let db: Db | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function context(): Promise<ModuleContext> {
  db = await createTestDb();
  const ctx: ModuleContext = {
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    db,
    clock: new ManualClock(),
    services: {} as Services,
  };
  await createServices(ctx);
  return ctx;
}

const town = async (q: Db) =>
  (await q.query<{ town: string }>("SELECT town FROM customer WHERE customer_id = 'C1000001'")).rows[0]?.town;

describe('seedAll', () => {
  it('skips the demo-data seeds on a start whose demo data has not changed', async () => {
    const ctx = await context();
    const result = await seedAll(ctx);
    // The demo data is one seed now (db/demo/), loaded through the integration service.
    expect(result.skipped).toEqual(['demo']);
    expect(result.ran).not.toContain('demo');
  });

  it('keeps what a demo customer changed through the portal across a restart', async () => {
    const ctx = await context();
    await ctx.db.query("UPDATE customer SET town = 'Tavistock' WHERE customer_id = 'C1000001'");
    await seedAll(ctx);
    expect(await town(ctx.db)).toBe('Tavistock');
    // A forced seed, at a later start, restores the demo data (it loads a newer version of each record).
    (ctx.clock as ManualClock).advance(60_000);
    await seedAll(ctx, { force: true });
    expect(await town(ctx.db)).not.toBe('Tavistock');
  });

  it('runs a seed again when its inputs or version change, and records it', async () => {
    const ctx = await context();
    const calls: string[] = [];
    let inputs = { rows: 1 };
    const mod = (version?: number): ServiceModule => ({
      name: 'document',
      routes: async () => {},
      seed: async () => void calls.push('seeded'),
      seedInputs: () => inputs,
      ...(version ? { seedVersion: version } : {}),
    });
    expect((await seedAll(ctx, { modules: [mod()] })).ran).toEqual(['document']);
    expect((await seedAll(ctx, { modules: [mod()] })).skipped).toEqual(['document']);
    inputs = { rows: 2 };
    expect((await seedAll(ctx, { modules: [mod()] })).ran).toEqual(['document']);
    expect((await seedAll(ctx, { modules: [mod(2)] })).ran).toEqual(['document']);
    expect((await seedAll(ctx, { modules: [mod(2)] })).skipped).toEqual(['document']);
    expect(calls).toHaveLength(3);
  });

  it('runs a seed without inputs at every start', async () => {
    const ctx = await context();
    let runs = 0;
    const mod: ServiceModule = { name: 'eventlog', routes: async () => {}, seed: async () => void runs++ };
    await seedAll(ctx, { modules: [mod] });
    await seedAll(ctx, { modules: [mod] });
    expect(runs).toBe(2);
  });
});
