import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallDefinition } from '@portal/contracts/call';
import type { z } from 'zod/mini';
import type {
  integrationResult,
  integrationWriteErrors,
  SourceVersion,
} from '@portal/contracts/integration/common';
import type { IntegrationContext } from './context';
import { route } from '../../platform/route';
import type { IntegrationActor } from './versioned';

/** The machine client of an integration call (the client guard has run: it is always there). */
export function actorOf(request: FastifyRequest): IntegrationActor {
  return { clientId: request.client!.clientId, correlationId: request.correlationId };
}

/** A record's PUT or DELETE: it answers the integration result. */
type RecordCall = CallDefinition<
  z.ZodMiniType,
  z.ZodMiniType,
  z.ZodMiniType,
  { 200: typeof integrationResult } & typeof integrationWriteErrors,
  false
>;

/**
 * Serves one record type's PUT (upsert) and DELETE (removal at `?version=`) through the integration
 * service: every record's two calls are the same but for the type and how its key is made of the path.
 */
export function serveRecord(
  app: FastifyInstance,
  ctx: IntegrationContext,
  calls: { put: RecordCall; remove: RecordCall },
  type: string,
  keyOf: (params: Record<string, string>) => string,
): void {
  const { integration } = ctx.services;
  route(app, calls.put, ({ params, body, request }) =>
    integration.upsert(
      type,
      keyOf(params as Record<string, string>),
      body as { version: SourceVersion },
      actorOf(request),
    ),
  );
  route(app, calls.remove, ({ params, query, request }) =>
    integration.remove(
      type,
      keyOf(params as Record<string, string>),
      (query as { version: SourceVersion }).version,
      actorOf(request),
    ),
  );
}
