import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oktaErrorCodes, type OktaError } from '@portal/contracts/identity';
import { mountPrefix } from '../../config';
import { sendError } from '../../platform/errors';
import type { OidcContext } from './context';
import { registeredRoutes } from '../../platform/route';

/** Okta's code for a method the endpoint does not support (405). */
const METHOD_NOT_ALLOWED = 'E0000022';

/** The `/api/v1` namespaces that are Okta's here (authn, sessions) or would be at a real Okta org (users). */
const OKTA_NAMESPACES = ['authn', 'sessions', 'users'];

/**
 * GET routes that only hand over to the not-found handler below: without them an unknown GET path would
 * reach the SPA's catch-all static route (`GET /*`) and its project-envelope 404.
 */
const GET_FALLBACKS = OKTA_NAMESPACES.flatMap((n) => [`/${n}`, `/${n}/*`]);

const patternOf = (url: string) =>
  new RegExp(
    `^${url
      .split('/')
      .map((part) =>
        part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}/?$`,
  );

function oktaError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  summary: string,
) {
  const body: OktaError = {
    errorCode: code,
    errorSummary: summary,
    errorLink: code,
    errorId: request.correlationId,
    errorCauses: [],
  };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Unknown paths and methods under the identity service's `/api/v1`: in Okta's envelope for Okta's
 * namespaces (404 E0000007, or 405 E0000022 with `Allow` when the path exists for other methods), as
 * an Okta client expects; other services' paths under `/api/v1` keep the project's envelope.
 */
export async function oktaNotFound(app: FastifyInstance, ctx: OidcContext) {
  const prefix = `${mountPrefix(ctx.config.baseUrls.identity)}/api/v1`;
  let patterns: Array<{ method: string; test: RegExp }> | undefined;
  // Every route is registered by the time the first request arrives; built once, on first use.
  const fallbacks = new Set(GET_FALLBACKS.map((f) => `${prefix}${f}`));
  const routes = () =>
    (patterns ??= registeredRoutes(app)
      .filter((r) => r.url.startsWith(`${prefix}/`) && !(r.method === 'GET' && fallbacks.has(r.url)))
      .map((r) => ({ method: r.method, test: patternOf(r.url) })));

  await app.register(
    async (scope) => {
      scope.setNotFoundHandler(async (request, reply) => {
        const path = request.url.split('?')[0]!;
        const namespace = path.slice(prefix.length + 1).split('/')[0] ?? '';
        if (!OKTA_NAMESPACES.includes(namespace)) {
          return sendError(request, reply, 404, 'NOT_FOUND', 'Not found');
        }
        const allowed = [
          ...new Set(
            routes()
              .filter((r) => r.test.test(path))
              .map((r) => r.method),
          ),
        ];
        if (allowed.length > 0) {
          if (allowed.includes('GET')) allowed.push('HEAD');
          reply.header('Allow', allowed.join(', '));
          return oktaError(
            request,
            reply,
            405,
            METHOD_NOT_ALLOWED,
            'The endpoint does not support the provided HTTP method',
          );
        }
        // The path as requested, when it is plain; never markup or control characters.
        const named = /^[\w.~/%-]{1,200}$/.test(path) ? path : 'resource';
        return oktaError(
          request,
          reply,
          404,
          oktaErrorCodes.notFound,
          `Not found: Resource not found: ${named}`,
        );
      });
      for (const url of GET_FALLBACKS) scope.get(url, async (_request, reply) => reply.callNotFound());
    },
    { prefix: '/api/v1' },
  );
}
