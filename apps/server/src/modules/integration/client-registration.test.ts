/**
 * Issue 38 point 2: registering an integration client (`npm run integration:client`), and secrets sent as
 * HTTP clients send them. HTTP Basic credentials are form-encoded first (RFC 6749 §2.3.1): a secret with
 * a `+` sent as it is (`curl -u id:secret`) used to be refused, since the `+` was read as a space. The
 * command makes secrets from the URL-safe alphabet, and the portal takes a secret either way.
 */
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../config';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { registerIntegrationClient, UsageError } from './client-registration';

const TOKEN_URL = '/oauth2/default/v1/token';

/** A secret as `openssl rand -base64 32` makes them, with a `+` (and a `/` and padding). */
const plusSecret = 'n3Kq+Wm5/Zx8+Yt0aB1cD2eF3gH4iJ5kL6mN7oP8qR0=';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `Authorization: Basic` as curl -u makes it: `id:secret` in base64, nothing encoded first. */
const curlBasic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** As RFC 6749 §2.3.1 asks: each part form-encoded, then base64. */
const formEncodedBasic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('registering an integration client', () => {
  it('makes a secret of 32 random bytes from the URL-safe alphabet, and an entry holding only its hash', async () => {
    const { entry, secret } = await registerIntegrationClient({
      name: 'policy-admin',
      scopes: ['customers.write', 'policies.write'],
      rateLimitPerMinute: 600,
    });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret!, 'base64url')).toHaveLength(32);
    expect(entry).toEqual({
      clientId: 'policy-admin',
      scopes: ['customers.write', 'policies.write'],
      secretSha256: sha256(secret!),
      rateLimitPerMinute: 600,
    });
    expect(JSON.stringify(entry)).not.toContain(secret!);
  });

  it('adds the client to the configuration given, and with --rotate gives it a second secret', async () => {
    const first = await registerIntegrationClient({ name: 'billing', scopes: ['billing.write'] });
    const crm = { clientId: 'crm', secretSha256: sha256('x'), scopes: ['events.read'] };
    const added = await registerIntegrationClient({
      name: 'billing',
      scopes: ['billing.write'],
      current: JSON.stringify([crm]),
    });
    expect(added.clients).toEqual([crm, added.entry]);
    const rotated = await registerIntegrationClient({
      name: 'billing',
      scopes: [],
      rotate: true,
      current: JSON.stringify([crm, first.entry]),
    });
    expect(rotated.entry.secretSha256).toEqual([first.entry.secretSha256, sha256(rotated.secret!)]);
    expect(rotated.clients).toEqual([crm, rotated.entry]);
  });

  it('refuses what the portal would refuse at start, saying why', async () => {
    await expect(registerIntegrationClient({ name: 'crm', scopes: ['everything'] })).rejects.toThrow(
      /Unknown scope everything/,
    );
    await expect(registerIntegrationClient({ name: 'x', scopes: ['events.read'] })).rejects.toThrow(
      UsageError,
    );
    await expect(
      registerIntegrationClient({
        name: 'crm',
        scopes: ['events.read'],
        current: JSON.stringify([{ clientId: 'crm', secretSha256: sha256('x'), scopes: ['events.read'] }]),
      }),
    ).rejects.toThrow(/already: --rotate/);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expect(
      registerIntegrationClient({
        name: 'crm',
        scopes: ['events.read'],
        publicKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    ).rejects.toThrow(/private key/);
  });

  it('prints the secret once and the entry, as a command', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/integration-client.ts', 'crm', '--scopes', 'events.read'],
      { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, INTEGRATION_CLIENTS: '' } },
    );
    expect(run.status).toBe(0);
    const secret = /^ {2}([A-Za-z0-9_-]{43})$/m.exec(run.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(run.stdout).toContain(`"secretSha256":"${sha256(secret!)}"`);
    expect(run.stdout).toContain(`curl -s -u 'crm:${secret}'`);
    const refused = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/integration-client.ts', 'crm', '--scopes', 'nothing'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/Unknown scope nothing/);
  });
});

describe('a client secret at the token endpoint', () => {
  let t: TestContext;
  let generated: { clientId: string; secret: string };
  let signing: Awaited<ReturnType<typeof importPKCS8>>;
  let kid: string;

  beforeAll(async () => {
    const made = await registerIntegrationClient({ name: 'policy-admin', scopes: ['policies.write'] });
    generated = { clientId: 'policy-admin', secret: made.secret! };
    // A client that signs its assertions, registered from its public key file.
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-client-key-'));
    const publicFile = path.join(dir, 'crm-public.pem');
    writeFileSync(publicFile, pair.publicKey.export({ type: 'spki', format: 'pem' }));
    const signer = await registerIntegrationClient({
      name: 'crm',
      scopes: ['events.read'],
      publicKey: readFileSync(publicFile, 'utf8'),
    });
    kid = String(signer.entry.jwks!.keys[0]!.kid);
    signing = await importPKCS8(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'ES256');
    t = await createTestApp({
      INTEGRATION_CLIENTS: JSON.stringify([
        made.entry,
        { clientId: 'legacy-system', secretSha256: sha256(plusSecret), scopes: ['billing.write'] },
        signer.entry,
      ]),
    });
  });
  afterAll(async () => t?.close());

  const token = (authorization: string, scope: string) =>
    t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
    });

  it('takes a generated secret sent as curl -u sends it (and form-encoded: the same bytes)', async () => {
    for (const basic of [curlBasic, formEncodedBasic]) {
      const res = await token(basic(generated.clientId, generated.secret), 'policies.write');
      expect(res.statusCode).toBe(200);
      expect(decodeJwt(res.json<{ access_token: string }>().access_token).client_id).toBe('policy-admin');
    }
  });

  it('takes a secret with a + sent both ways: as it is, and form-encoded', async () => {
    const raw = await token(curlBasic('legacy-system', plusSecret), 'billing.write');
    expect(raw.statusCode).toBe(200);
    const encoded = await token(formEncodedBasic('legacy-system', plusSecret), 'billing.write');
    expect(encoded.statusCode).toBe(200);
  });

  it('refuses a wrong secret, either way', async () => {
    for (const basic of [curlBasic, formEncodedBasic]) {
      const res = await token(basic('legacy-system', plusSecret.replace('n3', 'n4')), 'billing.write');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('gives the client registered from its public key a token for an assertion it signs', async () => {
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer('crm')
      .setSubject('crm')
      .setAudience(`http://localhost:3000${TOKEN_URL}`)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(signing);
    const res = await t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'events.read',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json<{ access_token: string }>().access_token).client_id).toBe('crm');
  });
});
