import { z } from 'zod';
import { ConfigError } from './common';
import type { NodeEnv } from './process';
import type { ModuleName } from './services';

/* The OpenID provider (modules/oidc): its signing keys, its cookies' secrets, its tokens' lifetimes. */

export const oidcVariables = z.object({
  /** OpenID provider signing keys: a JWKS (JSON) of private keys, the signing key first. Required in production. */
  OIDC_JWKS: z.string().min(1).optional(),
  /** Secrets that sign the OpenID provider's cookies, comma-separated, newest first. Required in production. */
  OIDC_COOKIE_KEYS: z.string().min(1).optional(),
  /** Access (and ID) token lifetime in seconds. */
  OIDC_ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(3600).default(600),
  /** Absolute lifetime in seconds of a provider session and of the refresh tokens issued in it. */
  OIDC_SESSION_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(7 * 24 * 3600)
    .default(8 * 3600),
});

/** A JSON Web Key as configured (private signing keys carry `d`). */
export type ConfiguredJwk = { kty: string; kid?: string; d?: string } & Record<string, unknown>;

export interface OidcConfig {
  oidc: {
    /** Signing keys from OIDC_JWKS; undefined means generate and store them in the database (not in production). */
    jwks: { keys: ConfiguredJwk[] } | undefined;
    /** Cookie signing secrets from OIDC_COOKIE_KEYS; undefined means generate and store them (not in production). */
    cookieKeys: string[] | undefined;
    accessTokenTtl: number;
    sessionTtl: number;
  };
}

/**
 * OpenID provider keys. In production an instance serving identity must be given them (generated keys in a
 * database are a development convenience); elsewhere missing keys are generated on first start.
 */
export function oidcConfig(
  e: z.infer<typeof oidcVariables> & NodeEnv,
  modules: ReadonlySet<ModuleName>,
): OidcConfig {
  const required = e.NODE_ENV === 'production' && modules.has('identity');
  if (required && !e.OIDC_JWKS) {
    throw new ConfigError(
      'Invalid configuration: OIDC_JWKS: required in production (a JWKS of private signing keys)',
    );
  }
  if (required && !e.OIDC_COOKIE_KEYS) {
    throw new ConfigError(
      'Invalid configuration: OIDC_COOKIE_KEYS: required in production (comma-separated secrets of 32+ characters)',
    );
  }
  let jwks: OidcConfig['oidc']['jwks'];
  if (e.OIDC_JWKS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(e.OIDC_JWKS);
    } catch {
      throw new ConfigError('Invalid configuration: OIDC_JWKS: not valid JSON');
    }
    const keys = (parsed as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys) || keys.length === 0) {
      throw new ConfigError(
        'Invalid configuration: OIDC_JWKS: expected {"keys":[...]} with at least one key',
      );
    }
    for (const key of keys as Array<Record<string, unknown>>) {
      if (typeof key !== 'object' || key === null || !['RSA', 'EC', 'OKP'].includes(String(key['kty']))) {
        throw new ConfigError('Invalid configuration: OIDC_JWKS: every key needs kty RSA, EC or OKP');
      }
      if (typeof key['d'] !== 'string') {
        throw new ConfigError('Invalid configuration: OIDC_JWKS: every key must be a private key (with "d")');
      }
    }
    jwks = { keys: keys as ConfiguredJwk[] };
  }
  let cookieKeys: string[] | undefined;
  if (e.OIDC_COOKIE_KEYS) {
    cookieKeys = e.OIDC_COOKIE_KEYS.split(',').map((k) => k.trim());
    if (cookieKeys.some((k) => k.length < 32)) {
      throw new ConfigError(
        'Invalid configuration: OIDC_COOKIE_KEYS: every key must be at least 32 characters',
      );
    }
  }
  return {
    oidc: { jwks, cookieKeys, accessTokenTtl: e.OIDC_ACCESS_TOKEN_TTL, sessionTtl: e.OIDC_SESSION_TTL },
  };
}
