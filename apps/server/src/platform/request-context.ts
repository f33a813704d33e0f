import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { traceFields } from './tracing';

declare module 'fastify' {
  interface FastifyRequest {
    correlationId: string;
    sessionId: string | undefined;
  }
}

const safeId = /^[A-Za-z0-9._:-]{1,100}$/;

interface RequestIds {
  correlationId: string;
  sessionId: string | undefined;
}

/** The ids of a raw request, worked out once when Fastify makes the request's logger. */
const idsOf = new WeakMap<IncomingMessage, RequestIds>();

function header(raw: IncomingMessage, name: string): string | undefined {
  const value = raw.headers[name];
  return typeof value === 'string' && safeId.test(value) ? value : undefined;
}

function readIds(raw: IncomingMessage): RequestIds {
  let ids = idsOf.get(raw);
  if (!ids) {
    ids = {
      correlationId: header(raw, 'x-correlationid') ?? randomUUID(),
      sessionId: header(raw, 'x-sessionid'),
    };
    idsOf.set(raw, ids);
  }
  return ids;
}

/** The correlation id of a raw request (for answers made before the request's hooks run). */
export function correlationIdOf(raw: IncomingMessage): string {
  return readIds(raw).correlationId;
}

/**
 * Every request gets a correlation id (the caller's X-CorrelationId when it is a sane token, else a new
 * one), echoed on the response. Every log line of the request, Fastify's own "incoming request" and
 * "request completed" included, carries it and the caller's X-SessionId, and the trace id when tracing is
 * on (platform/tracing.ts). Must be installed before any
 * route or plugin, so every scope inherits the logger factory.
 */
export function installRequestContext(app: FastifyInstance) {
  app.decorateRequest('correlationId', '');
  app.decorateRequest('sessionId', undefined);
  app.setChildLoggerFactory((logger, bindings, options, raw) => {
    const { correlationId, sessionId } = readIds(raw as IncomingMessage);
    return logger.child(
      {
        ...bindings,
        correlationId,
        ...(sessionId ? { sessionId } : {}),
        ...traceFields(raw as IncomingMessage),
      },
      options,
    );
  });
  // Callback-style, as every per-request hook of the platform: no promise per request (decision 030).
  app.addHook('onRequest', (request, reply, done) => {
    const { correlationId, sessionId } = readIds(request.raw);
    request.correlationId = correlationId;
    request.sessionId = sessionId;
    reply.header('X-CorrelationId', correlationId);
    done();
  });
}
