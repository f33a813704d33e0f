import type { FastifyInstance, FastifyRequest } from 'fastify';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { bearerToken, verifyAccessToken } from '../../platform/auth-guard';
import { HttpError } from '../../platform/errors';
import type { PlatformContext } from '../../platform/module';
import { route } from '../../platform/route';
import type { EventlogService, VerifiedCaller } from './eventlog.service';

/**
 * The bearer token is optional here: pre-login events (sign-in failure, registration) have none. A
 * header that is present must still be a valid token; it is never silently ignored.
 */
async function callerOf(ctx: PlatformContext, request: FastifyRequest): Promise<VerifiedCaller | null> {
  if (request.headers.authorization === undefined) return null;
  const token = bearerToken(request);
  if (!token) {
    throw new HttpError(
      401,
      'UNAUTHORIZED',
      'Send the access token as "Authorization: Bearer <token>".',
      undefined,
      {
        'WWW-Authenticate': 'Bearer realm="portal"',
      },
    );
  }
  const customer = await verifyAccessToken(ctx, token);
  return { customerId: customer.customerId, onBehalfOf: customer.onBehalfOf };
}

declare module 'fastify' {
  interface FastifyRequest {
    auditCaller?: VerifiedCaller | null;
  }
}

export async function eventlogRoutes(app: FastifyInstance, ctx: PlatformContext, eventlog: EventlogService) {
  // The caller is read before the body is parsed: a bad token is a 401 whatever the body holds.
  route(
    app,
    postAuditEventCall,
    async ({ body, request }) => {
      await eventlog.record(body, {
        ip: request.ip,
        correlationId: request.correlationId,
        caller: request.auditCaller ?? null,
      });
      return { accepted: true as const };
    },
    {
      options: {
        preValidation: async (request) => {
          request.auditCaller = await callerOf(ctx, request);
        },
      },
    },
  );
}
