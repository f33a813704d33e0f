import type { FastifyInstance } from 'fastify';
import type { Config, ModuleName } from '../config';
import type { Clock } from './clock';
import type { Db } from './db';
import type { Services } from './services';

/** What every service module gets: configuration, the database, the clock and the other modules' services. */
export interface ModuleContext {
  config: Config;
  db: Db;
  clock: Clock;
  services: Services;
}

/** A service module: a Fastify plugin mounted under the path of its configured base URL. */
export interface ServiceModule {
  name: ModuleName;
  /** Registers routes. `app` is already scoped to the module's prefix. */
  routes(app: FastifyInstance, ctx: ModuleContext): Promise<void>;
  /**
   * Loads the module's demo and reference data. Must be idempotent: it runs at every start, unless the
   * module gives `seedInputs`.
   */
  seed?(ctx: ModuleContext): Promise<void>;
  /**
   * What the seed writes from. When given, the seed runs only when these, `seedVersion` or the set of
   * applied migrations changed since it last ran on this database (see db/seed.ts).
   */
  seedInputs?(): unknown;
  /** Bump when what the seed writes changes while its inputs do not (a new column it fills, say). */
  seedVersion?: number;
}
