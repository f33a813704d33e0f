import { randomBytes } from 'node:crypto';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JSONWebKeySet,
} from 'jose';
import type { ConfiguredJwk } from '../../config';
import type { OidcContext } from './context';
import { findKeyMaterial, replaceKeyMaterial, storeKeyMaterialOnce } from './oidc.repository';

/** The provider's key material: private signing keys (first one signs) and cookie secrets. */
export interface OidcKeys {
  /** Private JWKs, each with kid, alg and use. */
  signing: JWK[];
  /** Public halves, as published at {issuer}/v1/keys. */
  publicJwks: JSONWebKeySet;
  cookieKeys: string[];
  /** The key that signs, and its algorithm. */
  current: { kid: string; alg: string; key: Awaited<ReturnType<typeof importJWK>> };
  /** Verifies our own tokens without an HTTP round trip. */
  localKeySet: ReturnType<typeof createLocalJWKSet>;
}

const SIGNING_NAME = 'signing-jwks';
const COOKIE_NAME = 'cookie-keys';

function defaultAlg(jwk: JWK): string {
  if (jwk.alg) return jwk.alg;
  if (jwk.kty === 'EC') return jwk.crv === 'P-384' ? 'ES384' : jwk.crv === 'P-521' ? 'ES512' : 'ES256';
  if (jwk.kty === 'OKP') return 'EdDSA';
  return 'RS256';
}

const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'kid', 'alg', 'use'] as const;

function publicPart(jwk: JWK): JWK {
  const out: JWK = {};
  for (const m of PUBLIC_MEMBERS) if (jwk[m] !== undefined) (out as Record<string, unknown>)[m] = jwk[m];
  return out;
}

async function normalise(jwk: ConfiguredJwk | JWK): Promise<JWK> {
  const key = { ...(jwk as JWK) };
  key.alg = defaultAlg(key);
  key.use = 'sig';
  key.kid ??= await calculateJwkThumbprint(key);
  return key;
}

/** What generated keys sign with: RS256, as Okta does (okta-auth-js's token.verify accepts nothing else). */
const GENERATED_ALG = 'RS256';

async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(GENERATED_ALG, { extractable: true, modulusLength: 2048 });
  return normalise({ ...(await exportJWK(privateKey)), alg: GENERATED_ALG });
}

/**
 * Generated keys stored before RS256 was the default (ES256 first): a new RS256 key goes first and signs
 * from now on; the old keys stay published so tokens they signed still verify until they expire.
 */
async function rotatedToDefault(db: OidcContext['db'], stored: JWK[]): Promise<JWK[]> {
  if (stored[0]?.alg === GENERATED_ALG) return stored;
  return replaceKeyMaterial(db, SIGNING_NAME, stored, [await generateSigningKey(), ...stored]);
}

/**
 * Loads the provider's keys: from configuration when given, otherwise (never in production) from the
 * database, generating and storing them on the first start so every instance on that database signs
 * and verifies with the same keys. Configured keys sign with the first key's algorithm (an EC key: ES256);
 * generated ones with RS256.
 */
export async function loadOidcKeys(ctx: OidcContext): Promise<OidcKeys> {
  const { config, db } = ctx;
  let signing: JWK[];
  if (config.oidc.jwks) {
    signing = await Promise.all(config.oidc.jwks.keys.map(normalise));
  } else {
    if (config.env === 'production') throw new Error('OIDC_JWKS is required in production');
    const stored = await findKeyMaterial<JWK[]>(db, SIGNING_NAME);
    signing = stored
      ? await rotatedToDefault(db, stored)
      : await storeKeyMaterialOnce(db, SIGNING_NAME, [await generateSigningKey()]);
  }
  let cookieKeys: string[];
  if (config.oidc.cookieKeys) {
    cookieKeys = config.oidc.cookieKeys;
  } else {
    if (config.env === 'production') throw new Error('OIDC_COOKIE_KEYS is required in production');
    cookieKeys =
      (await findKeyMaterial<string[]>(db, COOKIE_NAME)) ??
      (await storeKeyMaterialOnce(db, COOKIE_NAME, [randomBytes(32).toString('base64url')]));
  }
  const first = signing[0]!;
  const publicJwks: JSONWebKeySet = { keys: signing.map(publicPart) };
  return {
    signing,
    publicJwks,
    cookieKeys,
    current: { kid: first.kid!, alg: first.alg!, key: await importJWK(first, first.alg) },
    localKeySet: createLocalJWKSet(publicJwks),
  };
}
