import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { errors, type InteractionResults } from 'oidc-provider';
import { writeAudit } from '../../platform/audit';
import type { ModuleContext } from '../../platform/module';
import { identityPort } from './identity-port';
import { issuerPath, OIDC_ROUTES } from './provider';

/** Koa reads the mount point from `originalUrl` when building its own URLs. */
type MountedRequest = IncomingMessage & { originalUrl?: string };

/**
 * An authorize request carrying a sessionToken is a fresh sign-in (Okta's `sessionToken` parameter):
 * whatever `prompt` says, and whatever session the browser already has, the provider must run its login
 * step, where the token is redeemed. `prompt=none` is therefore replaced by `prompt=login`.
 */
function forceLoginForSessionToken(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  if (!params.has('sessionToken')) return url;
  params.set('prompt', 'login');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/**
 * Mounts the provider (a Koa app) under {identity}/oauth2/default. The raw request is taken over in
 * onRequest, before Fastify reads the body, because the provider parses its own bodies; the mount prefix
 * is stripped from req.url as the provider expects. The interaction step (the provider's login prompt)
 * is answered here without any page: the sessionToken is redeemed, or the request ends with login_required.
 */
export async function mountProvider(app: FastifyInstance, ctx: ModuleContext, provider: Provider) {
  const prefix = issuerPath(ctx);
  const localPrefix = '/oauth2/default';
  const issuer = new URL(provider.issuer);
  const callback = provider.callback();

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        reply.hijack();
        const req = request.raw as MountedRequest;
        const res = reply.raw;
        // Headers already set by our platform hooks (correlation id, CORS) go out with the provider's answer.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined && !res.headersSent) res.setHeader(name, value as string | string[]);
        }
        const original = req.url ?? '/';
        const at = original.indexOf(prefix);
        let local = at === -1 ? original : original.slice(at + prefix.length);
        if (!local.startsWith('/')) local = `/${local}`;
        if (local.startsWith(`${OIDC_ROUTES.authorization}?`) && req.method === 'GET') {
          local = forceLoginForSessionToken(local);
        }
        try {
          const interaction = /^\/interaction\/([A-Za-z0-9_-]+)\/?$/.exec(local.split('?')[0]!);
          if (interaction) {
            await finishInteraction(ctx, provider, req, res, interaction[1]!, request.correlationId);
            return;
          }
          // The provider builds its endpoint URLs from the request; make that the configured issuer's
          // origin, never whatever Host header a caller sent (provider.proxy is on for this reason).
          req.headers['x-forwarded-host'] = issuer.host;
          req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
          // The provider takes the leftmost X-Forwarded-For entry: hand it only the address Fastify
          // worked out from the trusted proxies (the socket's own when none is trusted).
          req.headers['x-forwarded-for'] = request.ip;
          req.originalUrl = `${original.slice(0, at === -1 ? 0 : at)}${prefix}${local}`;
          req.url = local;
          await callback(req, res);
        } catch (error) {
          // Reply is hijacked: Fastify's error handler cannot answer for us.
          request.log.error({ err: error }, 'openid provider request failed');
          if (!res.headersSent)
            plainError(res, 500, 'Something went wrong on our side. Please try again later.');
          else res.end();
        }
      });
      // Fastify only runs the scope's hooks for requests that match one of its routes.
      const never = async () => undefined;
      scope.all('/', never);
      scope.all('/*', never);
    },
    { prefix: localPrefix },
  );
}

function plainError(res: ServerResponse, status: number, message: string) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(
    `<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8"><title>Sign-in could not continue</title></head><body><main><h1>Sign-in could not continue</h1><p>${message}</p></main></body></html>`,
  );
}

/**
 * The provider's interaction step. The first-party client's grants are automatic (loadExistingGrant), so
 * the only prompt that reaches here is login: it succeeds with a valid one-time sessionToken from the
 * authorize request and otherwise resolves to login_required back at the client's redirect_uri.
 */
async function finishInteraction(
  ctx: ModuleContext,
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  correlationId: string,
) {
  let details: Awaited<ReturnType<Provider['interactionDetails']>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch (error) {
    if (error instanceof errors.SessionNotFound) {
      return plainError(res, 400, 'This sign-in link has expired. Please start again.');
    }
    throw error;
  }
  if (details.uid !== uid) return plainError(res, 400, 'This sign-in link has expired. Please start again.');

  let result: InteractionResults;
  if (details.prompt.name === 'login') {
    const token = details.params['sessionToken'];
    const user =
      typeof token === 'string' && token ? await identityPort(ctx).consumeSessionToken(token) : null;
    if (user) {
      result = {
        login: {
          accountId: user.userId,
          amr: user.amr,
          ts: Math.floor(ctx.clock.now().getTime() / 1000),
        },
      };
    } else {
      result = {
        error: 'login_required',
        error_description:
          typeof token === 'string' ? 'The sessionToken is invalid or already used.' : 'Sign-in is required.',
      };
    }
    await writeAudit(ctx.db, {
      source: 'server',
      eventId: 'oidc.authorize',
      customerId: user?.customerId ?? null,
      onBehalfOf: user?.customerId ?? null,
      correlationId,
      isSuccess: Boolean(user),
      failureReason: user ? null : typeof token === 'string' ? 'invalid sessionToken' : 'no sessionToken',
      details: user ? { amr: user.amr } : {},
    });
  } else {
    // Not expected for the first-party client; never show a page, tell the client instead.
    result = {
      error: 'interaction_required',
      error_description: `The ${details.prompt.name} step is not available.`,
    };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}
