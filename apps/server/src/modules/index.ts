import type { Db, Queryable } from '../platform/db';
import { eraseEverywhere } from '../platform/erasure';
import { platformHousekeeping, runHousekeepingTasks, type HousekeepingRun } from '../platform/housekeeping';
import type { HousekeepingTask } from '../platform/housekeeping-task';
import { instanceOf, type AnyModule, type ErasurePort, type ModuleContext } from '../platform/module';
import type { RevocationsPort } from '../platform/revocations';
import type { Services } from '../platform/services';
import { accountModule } from './account';
import { contentModule } from './content';
import { documentModule } from './document';
import { eventlogModule } from './eventlog';
import { identityModule, type identityHousekeeping } from './identity';
import { integrationModule } from './integration';
import map from './map.json';
import { messageModule } from './message';
import { oidcModule, type oidcHousekeeping } from './oidc';
import { policyModule } from './policy';
import { portalModule, type portalHousekeeping } from './portal';
import { registrationModule } from './registration';
import { staffModule, type staffHousekeeping } from './staff';

/*
 * The composition of the server's modules: the one place that names them all (with app.ts, which mounts
 * them, and db/, which seeds them). Each module gets a context holding the services it declares it uses
 * and no others, so the edges at run time are the map's edges (docs/architecture.md).
 */

/** The module map, from the bottom up: a module uses only modules on lower rows (map.json). */
export const moduleMap: readonly (readonly string[])[] = map.layers;

/** Every service module, from the bottom of the map up: built and seeded in this order. */
export const modules: AnyModule[] = [
  contentModule,
  eventlogModule,
  identityModule,
  oidcModule,
  accountModule,
  policyModule,
  documentModule,
  messageModule,
  registrationModule,
  portalModule,
  integrationModule,
  staffModule,
];

const views = new WeakMap<object, Map<AnyModule, ModuleContext<never>>>();

/**
 * A module's context: the app's configuration, database and clock, and a services object that holds the
 * services the module uses and provides and nothing else (read when called, so the order in which they
 * are built does not matter once all are). The same object for a module each time it is asked for.
 */
export function moduleContext(mod: AnyModule, app: ModuleContext): ModuleContext<never> {
  const instance = instanceOf(app);
  let byModule = views.get(instance);
  if (!byModule) views.set(instance, (byModule = new Map()));
  const known = byModule.get(mod);
  if (known) return known;
  const allowed = [...(mod.uses ?? []), ...Object.keys(mod.provides ?? {})] as string[];
  const services = Object.freeze(
    Object.defineProperties(
      {},
      Object.fromEntries(
        allowed.map((key) => [
          key,
          { enumerable: true, get: () => (app.services as unknown as Record<string, unknown>)[key] },
        ]),
      ),
    ),
  );
  const view: ModuleContext<never> = { config: app.config, db: app.db, clock: app.clock, services, instance };
  byModule.set(mod, view);
  return view;
}

/** Every module's erasure, from the top of the map down (rows that refer to a record go before it). */
function erasurePorts(app: ModuleContext): ErasurePort[] {
  return [...modules]
    .reverse()
    .flatMap((mod) =>
      mod.erase === undefined
        ? []
        : [typeof mod.erase === 'function' ? mod.erase(moduleContext(mod, app)) : mod.erase],
    );
}

/**
 * Builds every module's services into ctx.services (the app's own registry, which holds them all), in
 * map order, and joins the ports: erasure for the integration module, the ending of sign-ins for the
 * identity module.
 */
export async function createServices(ctx: ModuleContext): Promise<Services> {
  ctx.instance ??= {};
  const registry = ctx.services as unknown as Record<string, unknown>;
  for (const mod of modules) {
    const view = moduleContext(mod, ctx);
    for (const [key, make] of Object.entries(mod.provides ?? {}))
      registry[key] = (make as (c: ModuleContext<never>) => unknown)(view);
  }
  let ports: ErasurePort[] | undefined;
  registry['erasure'] = {
    eraseCustomer: (tx: Queryable, customerId: string) =>
      eraseEverywhere(ctx, tx, customerId, (ports ??= erasurePorts(ctx))),
  } satisfies Services['erasure'];
  return ctx.services;
}

/** What housekeeping deletes of the modules' tables, module by module up the map. */
export function moduleHousekeeping(): HousekeepingTask[] {
  return modules.flatMap((mod) => [...(mod.housekeeping ?? [])]);
}

/** Every kind of row housekeeping deletes: the platform's and each module's. */
export type HousekeepingKind =
  | (typeof platformHousekeeping)[number]['kind']
  | (typeof identityHousekeeping)[number]['kind']
  | (typeof oidcHousekeeping)[number]['kind']
  | (typeof portalHousekeeping)[number]['kind']
  | (typeof staffHousekeeping)[number]['kind'];

/** One housekeeping run over every task, the platform's and the modules' (what the scheduler runs). */
export function runHousekeeping(
  db: Db,
  now: Date,
  options: { auditRetentionDays: number; batchSize?: number; stopping?: () => boolean },
): Promise<HousekeepingRun<HousekeepingKind>> {
  const tasks = [...platformHousekeeping, ...moduleHousekeeping()] as Array<
    HousekeepingTask & { kind: HousekeepingKind }
  >;
  return runHousekeepingTasks(db, now, { ...options, tasks });
}

/** The token guard's way to ask whether a sign-in lives: the module that issues sign-ins answers. */
export function revocations(app: ModuleContext): RevocationsPort | undefined {
  const issuer = modules.find((mod) => mod.revocations);
  return issuer?.revocations?.(moduleContext(issuer, app));
}
