import { z } from 'zod';

/*
 * Where the rate-limit counters are kept: Redis when REDIS_URL is set, else the database
 * (platform/counters/).
 */

export const countersVariables = z.object({
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** With REDIS_URL: how long one command may go unanswered before a call that needs a counter answers 503. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(500),
  /** Prefix of every Redis key this deployment writes (counters, limits); lets environments share a server. */
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('portal:'),
});

export interface CountersConfig {
  redisUrl: string | undefined;
  /** With redisUrl: milliseconds a Redis command may go unanswered (a frozen server) before a 503. */
  redisCommandTimeoutMs: number;
  redisKeyPrefix: string;
}

export function countersConfig(e: z.infer<typeof countersVariables>): CountersConfig {
  return {
    redisUrl: e.REDIS_URL,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
  };
}
