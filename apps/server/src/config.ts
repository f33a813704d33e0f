import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const url = z.url({ protocol: /^https?$/ });
const optionalUrl = url.optional();

/**
 * Every setting the server reads, from the environment. Parsed once at start; a bad value stops the
 * process with a one-line message naming the variable.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: url.default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.data')),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Which service modules this instance serves; all by default. */
  MODULES: z.string().optional(),
  CONTENT_BASE_URL: optionalUrl,
  ACCOUNT_BASE_URL: optionalUrl,
  POLICY_BASE_URL: optionalUrl,
  DOCUMENT_BASE_URL: optionalUrl,
  EVENTLOG_BASE_URL: optionalUrl,
  REGISTRATION_BASE_URL: optionalUrl,
  PORTAL_API_BASE_URL: optionalUrl,
  IDENTITY_BASE_URL: optionalUrl,
  FEATURE_FLAG_SDK_KEY: z.string().min(1).max(200).default('sdk-portal-local'),
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'apps', 'web', 'dist')),
  /** Shown on the outbox page and API; refused in production whatever this says. */
  DEV_OUTBOX: z.enum(['on', 'off']).default('on'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
});

export const moduleNames = [
  'content',
  'identity',
  'registration',
  'account',
  'policy',
  'document',
  'eventlog',
  'portal',
] as const;
export type ModuleName = (typeof moduleNames)[number];

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | undefined };
  dataDir: string;
  redisUrl: string | undefined;
  modules: ReadonlySet<ModuleName>;
  /** Base URL of each service as the SPA calls it; the module is mounted under its path. */
  baseUrls: Record<ModuleName, string>;
  featureFlagSdkKey: string;
  webDistDir: string;
  devOutbox: boolean;
  trustProxy: boolean;
}

export class ConfigError extends Error {}

const baseUrlEnv: Record<ModuleName, keyof z.infer<typeof envSchema>> = {
  content: 'CONTENT_BASE_URL',
  identity: 'IDENTITY_BASE_URL',
  registration: 'REGISTRATION_BASE_URL',
  account: 'ACCOUNT_BASE_URL',
  policy: 'POLICY_BASE_URL',
  document: 'DOCUMENT_BASE_URL',
  eventlog: 'EVENTLOG_BASE_URL',
  portal: 'PORTAL_API_BASE_URL',
};

/** Reads config from an environment (process.env by default). Throws ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name}: ${issue.message}`);
  }
  const e = parsed.data;
  const publicUrl = e.PUBLIC_URL.replace(/\/+$/, '');
  const baseUrls = Object.fromEntries(
    moduleNames.map((m) => [m, ((e[baseUrlEnv[m]] as string | undefined) ?? publicUrl).replace(/\/+$/, '')]),
  ) as Record<ModuleName, string>;

  let modules: Set<ModuleName> = new Set(moduleNames);
  if (e.MODULES) {
    const wanted = e.MODULES.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((m) => !(moduleNames as readonly string[]).includes(m));
    if (unknown.length > 0 || wanted.length === 0) {
      throw new ConfigError(
        `Invalid configuration: MODULES: unknown module ${unknown.join(', ') || '(none)'}; expected some of ${moduleNames.join(', ')}`,
      );
    }
    modules = new Set(wanted as ModuleName[]);
  }

  return {
    env: e.NODE_ENV,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    port: e.PORT,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.join(e.DATA_DIR, 'pglite') },
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    modules,
    baseUrls,
    featureFlagSdkKey: e.FEATURE_FLAG_SDK_KEY,
    webDistDir: e.WEB_DIST_DIR,
    devOutbox: e.NODE_ENV !== 'production' && e.DEV_OUTBOX === 'on',
    trustProxy: e.TRUST_PROXY === 'true',
  };
}

/** The path a module is mounted under: the path part of its base URL ('' for the site root). */
export function mountPrefix(baseUrl: string): string {
  const p = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return p === '/' ? '' : p;
}
