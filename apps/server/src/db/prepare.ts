import type { Config } from '../config';
import { createServices } from '../modules';
import { systemClock } from '../platform/clock';
import { migrate, type Db } from '../platform/db';
import type { ModuleContext } from '../platform/module';
import type { Services } from '../platform/services';
import { seedAll } from './seed';

/** Advisory lock key held while seeding; any constant shared by every instance (migrations use 727274). */
const SEED_LOCK = 727276;

/**
 * Makes a database ready for an instance: migrations, then every module's seed (content, keys,
 * reference data and, outside production, the demo customers).
 *
 * Several instances may start together on one PostgreSQL database (a rolling deploy, an autoscaler).
 * Migrations take their own lock; the seeds run under one more, held by a transaction for as long as
 * they take, so one instance seeds while the others wait and then find the work recorded (seed_state)
 * or repeat only the seeds that are idempotent. Without it, two instances inserted the same demo rows
 * at once and one exited on a unique-key violation. The embedded database has one instance by
 * construction (its data directory is locked), so it needs none. `db` must have no statement timeout:
 * waiting for another instance's seeds takes as long as they do.
 */
export async function prepareDatabase(db: Db, config: Config): Promise<void> {
  await migrate(db);
  const ctx: ModuleContext = { config, db, clock: systemClock, services: {} as Services };
  await createServices(ctx);
  if (db.kind === 'pglite') {
    await seedAll(ctx);
    return;
  }
  await db.transaction(async (lock) => {
    await lock.query(`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    await seedAll(ctx);
  });
}
