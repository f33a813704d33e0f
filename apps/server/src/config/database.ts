import path from 'node:path';
import { z } from 'zod';
import { ConfigError, repoRoot } from './common';
import type { NodeEnv } from './process';

/*
 * The database: PostgreSQL when DATABASE_URL is set, else the embedded one under DATA_DIR; what it is
 * seeded with; the capture of its statements for benchmarks.
 */

export const databaseVariables = z.object({
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** With DATABASE_URL: how long to wait for a connection before answering 503 (milliseconds). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** With DATABASE_URL: how long one statement may run or go unanswered before answering 503 (milliseconds). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** With DATABASE_URL: the most connections the instance's pool opens (decision 030 on sizing it). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * With DATABASE_URL: named prepared statements, each statement planned once per connection (decision
   * 029). `false` for a pooler that cannot keep them (PgBouncer before 1.21 in transaction mode).
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(['true', 'false']).default('true'),
  /**
   * Benchmarks only, refused in production: a file where each request sent with `X-Portal-Sql-Capture: 1`
   * has the statements it ran (text, parameters, rows, timing) appended as one JSON line
   * (platform/sql-capture.ts; bench/api-load.ts replays them in its bare peer).
   */
  PORTAL_SQL_CAPTURE_FILE: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.data')),
  /**
   * Seed the demo customers (published passwords) and their policies, documents and sign-ins. Default: on
   * outside production, off in production; `true` in production is allowed for a demo site, with a warning.
   */
  SEED_DEMO_DATA: z.enum(['true', 'false']).optional(),
});

export interface DatabaseConfig {
  database:
    | {
        kind: 'postgres';
        url: string;
        max: number;
        preparedStatements: boolean;
        connectTimeoutMs: number;
        statementTimeoutMs: number;
      }
    | { kind: 'pglite'; dataDir: string | undefined };
  dataDir: string;
  /** Benchmarks only (never in production): where captured statements go (platform/sql-capture.ts). */
  sqlCaptureFile: string | undefined;
  /** Whether the seed writes the demo customers and their data (insurer reference data always seeds). */
  seedDemoData: boolean;
}

export function databaseConfig(e: z.infer<typeof databaseVariables> & NodeEnv): DatabaseConfig {
  if (e.PORTAL_SQL_CAPTURE_FILE && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration: PORTAL_SQL_CAPTURE_FILE: not allowed in production (it writes query parameters, personal data among them, to a file)',
    );
  }
  return {
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          max: e.DATABASE_POOL_SIZE,
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'true',
          connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        }
      : { kind: 'pglite', dataDir: path.join(e.DATA_DIR, 'pglite') },
    dataDir: e.DATA_DIR,
    sqlCaptureFile: e.PORTAL_SQL_CAPTURE_FILE,
    seedDemoData: e.SEED_DEMO_DATA ? e.SEED_DEMO_DATA === 'true' : e.NODE_ENV !== 'production',
  };
}
