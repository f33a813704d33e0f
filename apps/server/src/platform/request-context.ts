import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    correlationId: string;
    sessionId: string | undefined;
  }
}

const safeId = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Every request gets a correlation id (the caller's X-CorrelationId when it is a sane token, else a new
 * one), echoed on the response and bound to the request's log lines with the caller's X-SessionId.
 */
export function installRequestContext(app: FastifyInstance) {
  app.decorateRequest('correlationId', '');
  app.decorateRequest('sessionId', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const incoming = request.headers['x-correlationid'];
    const correlationId = typeof incoming === 'string' && safeId.test(incoming) ? incoming : randomUUID();
    const session = request.headers['x-sessionid'];
    request.correlationId = correlationId;
    request.sessionId = typeof session === 'string' && safeId.test(session) ? session : undefined;
    request.log = request.log.child({ correlationId, sessionId: request.sessionId });
    reply.header('X-CorrelationId', correlationId);
  });
}
