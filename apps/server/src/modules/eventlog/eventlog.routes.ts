import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditAccepted, auditEvent } from '@portal/contracts/eventlog';
import { bearerToken, verifyAccessToken } from '../../platform/auth-guard';
import { HttpError } from '../../platform/errors';
import type { ModuleContext } from '../../platform/module';
import { checkOutput, parseInput } from '../../platform/validate';
import type { EventlogService, VerifiedCaller } from './eventlog.service';

/**
 * The bearer token is optional here: pre-login events (sign-in failure, registration) have none. A
 * header that is present must still be a valid token; it is never silently ignored.
 */
async function callerOf(ctx: ModuleContext, request: FastifyRequest): Promise<VerifiedCaller | null> {
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

export async function eventlogRoutes(app: FastifyInstance, ctx: ModuleContext, eventlog: EventlogService) {
  app.post('/api/v1/audit', async (request, reply) => {
    const caller = await callerOf(ctx, request);
    const event = parseInput(auditEvent, request.body);
    await eventlog.record(event, { ip: request.ip, correlationId: request.correlationId, caller });
    return reply.status(202).send(checkOutput(auditAccepted, { accepted: true }));
  });
}
