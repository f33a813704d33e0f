import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestApp, createTestDb } from '../../../test/helpers';
import { ConfigError, loadConfig } from '../../config';
import { apiAudience, oidcIssuer, verifyAccessToken } from '../../platform/auth-guard';
import { ManualClock } from '../../platform/clock';
import { signInTokens } from '../../../test/oidc-support';

const jwksOf = async (t: Awaited<ReturnType<typeof createTestApp>>) =>
  (await t.app.inject({ method: 'GET', url: '/oauth2/default/v1/keys' })).json<{
    keys: Array<Record<string, unknown>>;
  }>();

describe('signing and cookie keys', () => {
  it('are generated once, stored, and shared by every instance on the database', async () => {
    const db = await createTestDb();
    await db.query('DELETE FROM oidc_key_material');
    const clock = new ManualClock();
    // Started together, as instances behind one load balancer: both must end up with the same keys.
    const [a, b] = await Promise.all([createTestApp({}, { db, clock }), createTestApp({}, { db, clock })]);
    try {
      const stored = await db.query<{ name: string }>('SELECT name FROM oidc_key_material ORDER BY name');
      expect(stored.rows.map((r) => r.name)).toEqual(['cookie-keys', 'signing-jwks']);
      const published = await jwksOf(a);
      expect(published.keys).toHaveLength(1);
      expect(published.keys[0]).toMatchObject({
        kty: 'RSA',
        alg: 'RS256',
        use: 'sig',
        kid: expect.any(String),
      });
      // Only public halves are published.
      expect(published.keys[0]).not.toHaveProperty('d');
      expect(await jwksOf(b)).toEqual(published);

      // A token from instance A is accepted by instance B, and its browser session is known to B.
      const tokens = await signInTokens(a);
      await expect(verifyAccessToken(b.app.ctx, tokens.access_token)).resolves.toMatchObject({
        customerId: tokens.who.customerId,
      });
      const me = await b.app.inject({
        method: 'GET',
        url: '/api/v1/sessions/me',
        headers: { cookie: tokens.jar.header('/api/v1/sessions/me') },
      });
      expect(me.statusCode).toBe(200);
      // B redeems A's refresh token (same database, same keys).
      const refreshed = await b.app.inject({
        method: 'POST',
        url: '/oauth2/default/v1/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          client_id: 'portal-spa',
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        }).toString(),
      });
      expect(refreshed.statusCode).toBe(200);
    } finally {
      await b.close();
      await a.close();
      await db.close();
    }
  });

  it('rotate a stored ES256 key: a new RS256 key signs, the old one still verifies what it signed', async () => {
    const db = await createTestDb();
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const old = { ...(await exportJWK(privateKey)), kid: 'old-es256', alg: 'ES256', use: 'sig' };
    await db.query("UPDATE oidc_key_material SET value = $1::jsonb WHERE name = 'signing-jwks'", [
      JSON.stringify([old]),
    ]);
    const clock = new ManualClock();
    const [a, b] = await Promise.all([createTestApp({}, { db, clock }), createTestApp({}, { db, clock })]);
    try {
      const published = await jwksOf(a);
      expect(published.keys.map((k) => [k.kty, k.alg])).toEqual([
        ['RSA', 'RS256'],
        ['EC', 'ES256'],
      ]);
      // Both instances rotated to the same new key.
      expect(await jwksOf(b)).toEqual(published);
      const tokens = await signInTokens(a);
      expect(decodeProtectedHeader(tokens.id_token)).toMatchObject({
        alg: 'RS256',
        kid: published.keys[0]!.kid,
      });
      // An access token the old key signed before the rotation is still accepted until it expires.
      const now = Math.floor(clock.now().getTime() / 1000);
      const before = await new SignJWT({
        scope: 'openid portal.customer',
        customerId: 'C1000001',
        onBehalfOf: 'C1000001',
        client_id: 'portal-spa',
      })
        .setProtectedHeader({ alg: 'ES256', kid: 'old-es256', typ: 'at+jwt' })
        .setIssuer(oidcIssuer(a.config))
        .setAudience(apiAudience(a.config))
        .setSubject('00u-old')
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(privateKey);
      await expect(verifyAccessToken(a.app.ctx, before)).resolves.toMatchObject({ customerId: 'C1000001' });
    } finally {
      await b.close();
      await a.close();
      await db.close();
    }
  });

  it('come from OIDC_JWKS and OIDC_COOKIE_KEYS when configured', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'configured-1' };
    const t = await createTestApp({
      OIDC_JWKS: JSON.stringify({ keys: [jwk] }),
      OIDC_COOKIE_KEYS: 'a'.repeat(40),
    });
    try {
      const published = await jwksOf(t);
      expect(published.keys.map((k) => k.kid)).toEqual(['configured-1']);
      const tokens = await signInTokens(t);
      const { protectedHeader } = await jwtVerify(
        tokens.access_token,
        createLocalJWKSet(published as never),
        {
          currentDate: t.clock.now(),
        },
      );
      expect(protectedHeader.kid).toBe('configured-1');
    } finally {
      await t.close();
    }
  });
});

describe('OpenID configuration', () => {
  const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.co.uk' };

  it('requires the keys in production on an instance serving identity, naming the variable', () => {
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/OIDC_JWKS/);
    expect(() => loadConfig({ ...production, OIDC_JWKS: '{"keys":[{"kty":"EC","d":"x"}]}' })).toThrow(
      /OIDC_COOKIE_KEYS/,
    );
    // A data-only instance verifies with the published keys and needs none.
    expect(loadConfig({ ...production, MODULES: 'policy' }).oidc.jwks).toBeUndefined();
  });

  it('rejects keys that cannot sign and cookie keys that are too short', () => {
    expect(() => loadConfig({ OIDC_JWKS: 'not json' })).toThrow(/OIDC_JWKS: not valid JSON/);
    expect(() => loadConfig({ OIDC_JWKS: '{"keys":[]}' })).toThrow(/OIDC_JWKS/);
    expect(() => loadConfig({ OIDC_JWKS: '{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b"}]}' })).toThrow(
      /private key/,
    );
    expect(() => loadConfig({ OIDC_COOKIE_KEYS: 'short' })).toThrow(/OIDC_COOKIE_KEYS/);
    expect(() => loadConfig({ OIDC_ACCESS_TOKEN_TTL: '5' })).toThrow(/OIDC_ACCESS_TOKEN_TTL/);
  });
});
