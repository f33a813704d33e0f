import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError, url } from './common';

/* The process itself: which environment it is, where it listens, how it logs, stops and sees clients. */

export const processVariables = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: url.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * On SIGTERM/SIGINT: seconds the instance keeps serving, while /readyz answers 503, before it stops
   * listening, so a load balancer's health check takes it out first. Default 10 in production, else 0.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  /**
   * Which proxies' X-Forwarded-For entries to believe: `false`, the number of proxies in front of the
   * portal, or their addresses (IPs or CIDR ranges, comma-separated). The client's address is then the
   * rightmost entry not written by a trusted proxy (Fastify's trustProxy).
   */
  TRUST_PROXY: z.string().default('false'),
});
type ProcessValues = z.infer<typeof processVariables>;

/** The environment's name, on which other areas' defaults and checks depend. */
export type NodeEnv = Pick<ProcessValues, 'NODE_ENV'>;

type TrustProxy = false | number | string[];

export interface ProcessConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  /** On SIGTERM/SIGINT: how long the instance keeps serving, not ready, before it stops listening. */
  shutdownDrainMs: number;
  /** Fastify's trustProxy: false, a hop count or the proxies' addresses (never `true`: see parseTrustProxy). */
  trustProxy: TrustProxy;
}

/** The address customers use, without a trailing slash: the base of every other address by default. */
export function publicUrlOf(e: ProcessValues): string {
  return (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
}

export function processConfig(e: ProcessValues, publicUrl: string): ProcessConfig {
  return {
    env: e.NODE_ENV,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    port: e.PORT,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (e.NODE_ENV === 'production' ? 10 : 0)) * 1000,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
  };
}

/** TRUST_PROXY: false, a hop count, or the proxies' addresses; anything else stops the start. */
function parseTrustProxy(value: string): TrustProxy {
  const setting = value.trim();
  if (setting === 'false' || setting === '') return false;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    if (hops >= 1 && hops <= 20) return hops;
  }
  if (setting === 'true') {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY: true would believe addresses the client writes itself; give the number of proxies in front of the portal (for example 1) or their addresses',
    );
  }
  const addresses = setting.split(',').map((a) => a.trim());
  const valid = (entry: string) => {
    const [ip, bits, extra] = entry.split('/');
    const version = isIP(ip ?? '');
    if (version === 0 || extra !== undefined) return false;
    if (bits === undefined) return true;
    const n = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
    return n >= 0 && n <= (version === 4 ? 32 : 128);
  };
  if (addresses.length > 0 && addresses.every(valid)) return addresses;
  throw new ConfigError(
    'Invalid configuration: TRUST_PROXY: expected false, the number of proxies (1 to 20) or their addresses (IPs or CIDR ranges, comma-separated)',
  );
}
