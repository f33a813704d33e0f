import type { FastifyInstance } from 'fastify';
import { instrumentCounterStore } from '../instrumented-counters';
import { metricsOf } from '../metrics';
import { instanceOf, type PlatformContext } from '../module';
import { databaseCounterStore } from './database';
import { openRedisCounterStore, type StoreLog } from './redis';
import type { CounterStore } from './store';

/*
 * The app's counter store: sliding-window counters in the database (database.ts) or in Redis (redis.ts),
 * chosen by the configuration, opened once per app and closed with it.
 */

export type { CounterStore, RateDecision, TakeItem } from './store';

/** Opens the store the configuration asks for: Redis when REDIS_URL is set, else the database. */
async function openCounterStore(ctx: PlatformContext): Promise<CounterStore> {
  if (!ctx.config.redisUrl) return databaseCounterStore(ctx.db, ctx.clock, ctx.config.redisKeyPrefix);
  return openRedisCounterStore(
    ctx.config.redisUrl,
    ctx.clock,
    ctx.config.redisKeyPrefix,
    ctx.config.redisCommandTimeoutMs,
    () => logs.get(instanceOf(ctx)),
  );
}

const logs = new WeakMap<object, StoreLog>();

const stores = new WeakMap<object, Promise<CounterStore>>();

/** The one counter store of an app (shared by its modules, keyed by their instance), opened on first use. */
export function counterStore(ctx: PlatformContext): Promise<CounterStore> {
  const instance = instanceOf(ctx);
  let store = stores.get(instance);
  if (!store) {
    store = openCounterStore(ctx).then((opened) => instrumentCounterStore(opened, metricsOf(ctx)));
    stores.set(instance, store);
  }
  return store;
}

/**
 * Gives the app's counter store the app's logger and closes the store with the app (the modules that
 * count close it too; closing twice is safe).
 */
export function installCounterStore(app: FastifyInstance, ctx: PlatformContext): void {
  logs.set(instanceOf(ctx), app.log);
  app.addHook('onClose', async () => closeCounterStore(ctx));
}

/** Closes the app's counter store if one was opened. Safe to call more than once. */
export async function closeCounterStore(ctx: PlatformContext): Promise<void> {
  const instance = instanceOf(ctx);
  const store = stores.get(instance);
  if (!store) return;
  stores.delete(instance);
  await (await store).close();
}
