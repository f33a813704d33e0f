/**
 * The integration API's machine clients: OAuth 2.0 client credentials from our own provider (a hashed
 * secret or private_key_jwt), a scope per area, their own audience; an integration token is refused on
 * every customer route and a customer's token on every integration route; per-client rate limits shared
 * by every instance.
 */
import { createHash, randomUUID } from 'node:crypto';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationScopes } from '@portal/contracts/call';
import { createTestApp, createTestDb, type TestContext } from '../../test/helpers';
import {
  bearer,
  clientToken,
  eventsOnlyClient,
  integrationEnv,
  testClient,
} from '../../test/integration-client';
import { signIn } from '../../test/sign-in';
import { ManualClock } from './clock';
import { registeredRoutes } from './route';

const TOKEN_URL = '/oauth2/default/v1/token';

/** A sample value for each path parameter: the guard answers before any parameter is checked. */
function samplePath(path: string): string {
  return path.replace(/:([A-Za-z]\w*)/g, (_, name: string) =>
    name === 'customerId' ? 'C1000001' : name === 'policyId' ? '102X4567891' : 'sample',
  );
}

function form(body: Record<string, string>) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  };
}

describe('integration clients', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(integrationEnv());
  });
  afterAll(async () => t.close());

  it('issues a client its token for the integration audience, with the scopes it asked for and holds', async () => {
    const token = await clientToken(t.app, testClient, ['customers.write', 'events.read']);
    const claims = decodeJwt(token);
    expect(claims.aud).toBe('http://localhost:3000/integration');
    expect(claims.client_id).toBe(testClient.clientId);
    expect(claims.scope).toBe('customers.write events.read');
    expect(claims['customerId']).toBeUndefined();
    expect(claims.exp! - claims.iat!).toBe(600);
  });

  it('refuses a wrong secret, a scope the client does not hold, and the portal audience', async () => {
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${testClient.clientId}:${secret}`).toString('base64')}`;
    const { payload } = form({ grant_type: 'client_credentials', scope: 'events.read' });
    const type = 'application/x-www-form-urlencoded';
    const wrong = await t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      headers: { authorization: basic('not-the-secret'), 'content-type': type },
      payload,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_client' });
    // The configured hash itself is not a secret that works.
    const hash = JSON.parse(integrationEnv().INTEGRATION_CLIENTS!)[0].secretSha256 as string;
    const withHash = await t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      headers: { authorization: basic(hash), 'content-type': type },
      payload,
    });
    expect(withHash.statusCode).toBe(401);

    await expect(clientToken(t.app, eventsOnlyClient, ['customers.write'])).rejects.toThrow(/invalid_scope/);
    const portal = await t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      headers: { authorization: basic(testClient.secret), 'content-type': type },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'events.read',
        resource: 'http://localhost:3000/api',
      }).toString(),
    });
    expect(portal.statusCode).toBe(400);
    expect(portal.json()).toMatchObject({ error: 'invalid_target' });
  });

  it('gives the portal SPA no client credentials and no integration scope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      ...form({ grant_type: 'client_credentials', client_id: 'portal-spa', scope: 'customers.write' }),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.json()).toHaveProperty('error');
  });

  it('refuses an integration token on every customer route', async () => {
    const token = await clientToken(t.app);
    const customerRoutes = registeredRoutes(t.app).filter((r) => r.call?.auth === true);
    expect(customerRoutes.length).toBeGreaterThan(15);
    for (const r of customerRoutes) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: samplePath(r.url),
        headers: { ...bearer(token), 'content-type': 'application/json' },
        ...(r.method === 'GET' ? {} : { payload: '{}' }),
      });
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      });
    }
  });

  it("refuses a customer's token, and no token, on every integration route", async () => {
    const customer = await signIn(t, 'james.carter@example.co.uk');
    const integrationRoutes = registeredRoutes(t.app).filter((r) => r.call?.clientScope !== undefined);
    expect(integrationRoutes.length).toBeGreaterThan(0);
    for (const r of integrationRoutes) {
      for (const headers of [{ authorization: customer.authorization }, {}]) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: samplePath(r.url),
          headers: { ...headers, 'content-type': 'application/json' },
          ...(r.method === 'GET' ? {} : { payload: '{}' }),
        });
        expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
          route: `${r.method} ${r.url}`,
          status: 401,
        });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="integration"/);
      }
    }
  });

  it('answers 403 naming the scope a client lacks', async () => {
    const token = await clientToken(t.app, eventsOnlyClient, ['events.read']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/integration/v1/bulk',
      headers: { ...bearer(token), 'content-type': 'application/x-ndjson' },
      payload: '',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(res.json().message).toMatch(/customers\.write/);
  });
});

describe('a client authenticating with private_key_jwt', () => {
  let t: TestContext;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'crm-1', alg: 'ES256', use: 'sig' };
    t = await createTestApp({
      INTEGRATION_CLIENTS: JSON.stringify([
        { clientId: 'crm-system', jwks: { keys: [publicJwk] }, scopes: ['events.read'] },
      ]),
    });
  });
  afterAll(async () => t.close());

  const assertion = (jti: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'crm-1' })
      .setIssuer('crm-system')
      .setSubject('crm-system')
      .setAudience(`http://localhost:3000${TOKEN_URL}`)
      .setJti(jti)
      // The provider checks client assertions against the real time, not the app's clock.
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(privateKey);

  const request = async (jwt: string) =>
    t.app.inject({
      method: 'POST',
      url: TOKEN_URL,
      ...form({
        grant_type: 'client_credentials',
        scope: 'events.read',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: jwt,
      }),
    });

  it('gets a token with a signed assertion, and a replayed assertion is refused', async () => {
    const jwt = await assertion(randomUUID());
    const first = await request(jwt);
    expect(first.statusCode).toBe(200);
    expect(decodeJwt(first.json().access_token).client_id).toBe('crm-system');
    const again = await request(jwt);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('a secret being rotated', () => {
  it('takes the old and the new secret while both hashes are configured', async () => {
    const sha = (v: string) => createHash('sha256').update(v).digest('hex');
    const t = await createTestApp({
      INTEGRATION_CLIENTS: JSON.stringify([
        {
          clientId: 'billing-system',
          secretSha256: [sha('old-secret-0123456789'), sha('new-secret-0123456789')],
          scopes: ['billing.write'],
        },
      ]),
    });
    try {
      for (const secret of ['old-secret-0123456789', 'new-secret-0123456789']) {
        const token = await clientToken(t.app, { clientId: 'billing-system', secret }, ['billing.write']);
        expect(decodeJwt(token).client_id).toBe('billing-system');
      }
      await expect(
        clientToken(t.app, { clientId: 'billing-system', secret: 'another-secret-012345' }, [
          'billing.write',
        ]),
      ).rejects.toThrow(/401/);
    } finally {
      await t.close();
    }
  });
});

describe('the client guard across instances', () => {
  it('stops a client removed from configuration at once, and counts its rate limit on every instance', async () => {
    const db = await createTestDb();
    const clock = new ManualClock();
    const env = integrationEnv({ rateLimitPerMinute: 3 });
    const [a, b] = await Promise.all([createTestApp(env, { db, clock }), createTestApp(env, { db, clock })]);
    const withoutClient = await createTestApp({}, { db, clock });
    try {
      const token = await clientToken(a.app, testClient, integrationScopes);
      const call = (t: TestContext) =>
        t.app.inject({
          method: 'POST',
          url: '/integration/v1/bulk',
          headers: { ...bearer(token), 'content-type': 'application/x-ndjson' },
          payload: '',
        });
      expect((await call(withoutClient)).statusCode).toBe(401);
      expect((await call(a)).statusCode).toBe(200);
      expect((await call(b)).statusCode).toBe(200);
      expect((await call(a)).statusCode).toBe(200);
      const limited = await call(b);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      clock.advance(61_000);
      expect((await call(b)).statusCode).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close(), withoutClient.close()]);
      await db.close();
    }
  });
});
