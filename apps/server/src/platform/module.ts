import type { FastifyInstance } from 'fastify';
import type { Config, ModuleName } from '../config';
import type { Clock } from './clock';
import type { Db, Queryable } from './db';
import type { HousekeepingTask } from './housekeeping-task';
import type { RevocationsPort } from './revocations';
import type { Services } from './services';

/**
 * What a service module gets: configuration, the database, the clock, and the services of the modules it
 * declares it uses (`S`, its `uses`, and its own). Nothing else of another module is reachable from it:
 * the object holds those services only (docs/architecture.md, "The server's module map").
 */
export interface ModuleContext<S extends keyof Services = keyof Services> {
  config: Config;
  db: Db;
  clock: Clock;
  services: Pick<Services, S>;
  /**
   * The running app this context belongs to, the same object in every module's context: what the
   * platform keeps once per app (its counter store, notifier, metrics, caches) is keyed by it. A context
   * made by hand (a script, a test) without one is its own.
   */
  instance?: object;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's context (buildApp): every module's services, for the platform's hooks and routes. */
    ctx: ModuleContext;
  }
}

/** What the platform's functions take: any module's context (they use no module's services). */
export type PlatformContext = ModuleContext<never>;

/** The object an app's platform state is kept under (see ModuleContext.instance). */
export function instanceOf(ctx: PlatformContext): object {
  return ctx.instance ?? ctx;
}

/** What a module's erasure leaves behind to say: counts of rows (or whether the record went), never data. */
export type ErasureCounts = Record<string, number | boolean>;

/**
 * A module's part in erasing a customer (decision 020): every module that holds a customer's data erases
 * its own rows, in the erasure's transaction. The integration module runs them from the top of the module
 * map down, so rows that refer to a customer's record go before the record.
 */
export interface ErasurePort {
  /**
   * Before any module erases: locks what must not change meanwhile (the customer record, so a write for
   * the customer racing the erasure waits for it). Answers whether the customer was held.
   */
  lock?(tx: Queryable, customerId: string): Promise<boolean>;
  /** Deletes the module's rows of the customer; answers what went, by count, for the erasure's audit row. */
  erase(tx: Queryable, customerId: string): Promise<ErasureCounts>;
}

/**
 * A service module: a Fastify plugin mounted under the path of its service's configured base URL, with
 * the services it offers the modules above it on the map and the ports the platform calls.
 * `S`: the services it uses (of modules below it); `P`: the services it provides.
 */
export interface ServiceModule<S extends keyof Services = never, P extends keyof Services = never> {
  /** The module's own name (its folder under modules/). */
  name: string;
  /** The configured service it serves, whose base URL it is mounted under (`MODULES`); its name by default. */
  service?: ModuleName;
  /** The tables the module owns: its SQL names no other (a test reads every module's SQL against these). */
  tables?: readonly string[];
  /** The services it calls: each provided by a module below it on the map (modules/map.ts). */
  uses?: readonly S[];
  /**
   * The services it offers the modules above it, each built from a context holding those it uses (and
   * its own, read when called: they are all built by then).
   */
  provides?: { [K in P]: (ctx: ModuleContext<S | P>) => Services[K] };
  /** Registers routes. `app` is already scoped to the module's prefix. */
  routes?(app: FastifyInstance, ctx: ModuleContext<S | P>): Promise<void>;
  /** Its part in erasing a customer. */
  erase?: ErasurePort | ((ctx: ModuleContext<S | P>) => ErasurePort);
  /** What housekeeping deletes of its tables once expired. */
  housekeeping?: readonly HousekeepingTask[];
  /** Whether a customer's sign-in still lives, for the token guard (the module that issues sign-ins). */
  revocations?(ctx: ModuleContext<S | P>): RevocationsPort;
  /**
   * Loads the module's own data (not demo data: that is db/demo/). Must be idempotent: it runs at every
   * start, unless the module gives `seedInputs`.
   */
  seed?(ctx: ModuleContext<S | P>): Promise<void>;
  /**
   * What the seed writes from. When given, the seed runs only when these, `seedVersion` or the set of
   * applied migrations changed since it last ran on this database (see db/seed.ts).
   */
  seedInputs?(): unknown;
  /** Bump when what the seed writes changes while its inputs do not (a new column it fills, say). */
  seedVersion?: number;
}

/** Any module, whatever it uses and provides (for lists of them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModule = ServiceModule<any, any>;

/** The configured service a module serves. */
export function serviceOf(mod: AnyModule): ModuleName {
  return (mod.service ?? mod.name) as ModuleName;
}
