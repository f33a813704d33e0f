import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { IntegrationScope } from '@portal/contracts/call';
import type { Config } from '../config';
import { bearerToken, verifyProviderToken } from './auth-guard';
import { counterStore } from './counters';
import { HttpError, tooManyRequests } from './errors';
import type { PlatformContext } from './module';

/**
 * The integration API's audience (`aud` of its access tokens). A customer's token is for the portal's
 * APIs (apiAudience) and is refused here; an integration token is refused on every customer route.
 */
export function integrationAudience(config: Config): string {
  return `${config.publicUrl}/integration`;
}

/** The machine client behind an integration call, from its verified access token. */
export interface IntegrationClient {
  clientId: string;
  scopes: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the client guard on integration routes. */
    client?: IntegrationClient;
  }
}

const REALM = 'realm="integration"';
const RATE_WINDOW_MS = 60_000;

function unauthorized(description?: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', 'A valid client access token is required.', undefined, {
    'WWW-Authenticate': description
      ? `Bearer ${REALM}, error="invalid_token", error_description="${description}"`
      : `Bearer ${REALM}`,
  });
}

/**
 * Verifies an integration access token: signed by our provider, for the integration audience, type
 * `at+jwt`, issued to a client still configured, by client credentials (no customer in it).
 */
async function verifyClientToken(ctx: PlatformContext, token: string): Promise<IntegrationClient> {
  const payload = await verifyProviderToken(
    ctx,
    token,
    integrationAudience(ctx.config),
    ['exp', 'client_id'],
    unauthorized,
  );
  const clientId = payload['client_id'];
  // A client removed from configuration loses access at once, whatever tokens it still holds; a token
  // about a customer (authorization code) is never an integration token.
  const configured = ctx.config.integration.clients.find((c) => c.clientId === clientId);
  if (typeof clientId !== 'string' || !configured || payload['customerId'] !== undefined) {
    throw unauthorized('The access token is invalid');
  }
  const granted = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [];
  return { clientId, scopes: granted.filter((s) => (configured.scopes as string[]).includes(s)) };
}

/**
 * preHandler that `route()` puts on every call whose contract names a `clientScope`: a valid integration
 * token with that scope (401 without one, 403 without the scope), then the client's rate limit (429 with
 * Retry-After; the limit is shared by every instance and never fails open).
 */
export function requireClient(
  ctx: PlatformContext,
  scope: IntegrationScope | readonly IntegrationScope[],
): preHandlerAsyncHookHandler {
  const accepted: readonly IntegrationScope[] = [scope].flat();
  return async function clientGuard(request: FastifyRequest) {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const client = await verifyClientToken(ctx, token);
    if (!accepted.some((s) => client.scopes.includes(s))) {
      throw new HttpError(
        403,
        'FORBIDDEN',
        `This client may not do that: it needs the ${accepted.join(' or ')} scope.`,
        undefined,
        {
          'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${accepted.join(' ')}"`,
        },
      );
    }
    const limit = ctx.config.integration.clients.find(
      (c) => c.clientId === client.clientId,
    )!.rateLimitPerMinute;
    const decision = await (
      await counterStore(ctx)
    ).take(`integration-client:${client.clientId}`, limit, RATE_WINDOW_MS);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
    request.client = client;
  };
}
