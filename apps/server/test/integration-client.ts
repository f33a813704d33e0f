import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { integrationScopes } from '@portal/contracts/call';

/*
 * Integration API clients for tests: one with every scope, one that may only read events. Their secrets
 * are known here; the configuration holds only their SHA-256, as in production.
 */
export const testClient = {
  clientId: 'test-system',
  secret: 'test-system-secret-0123456789abcdef-0123456789',
};
export const eventsOnlyClient = {
  clientId: 'test-feed-reader',
  secret: 'test-feed-reader-secret-0123456789abcdef-01',
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The environment a test app needs for the two clients (merge into createTestApp's env). */
export function integrationEnv(extra: { rateLimitPerMinute?: number } = {}): Record<string, string> {
  return {
    INTEGRATION_CLIENTS: JSON.stringify([
      {
        clientId: testClient.clientId,
        secretSha256: sha256(testClient.secret),
        scopes: [...integrationScopes],
        ...(extra.rateLimitPerMinute ? { rateLimitPerMinute: extra.rateLimitPerMinute } : {}),
      },
      {
        clientId: eventsOnlyClient.clientId,
        secretSha256: sha256(eventsOnlyClient.secret),
        scopes: ['events.read'],
      },
    ]),
  };
}

/** A client-credentials access token for the integration API (client_secret_basic). */
export async function clientToken(
  app: FastifyInstance,
  client: { clientId: string; secret: string } = testClient,
  scopes: readonly string[] = integrationScopes,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth2/default/v1/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`token endpoint answered ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}

/** Authorization header for integration calls. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
