import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The one error envelope of our own services: { code, message, fieldErrors?, correlationId }. */
interface ErrorEnvelope {
  code: string;
  message: string;
  fieldErrors?: Record<string, string>;
  correlationId: string;
}

/** A failure with a status the client should see. Anything else becomes a 500 with no detail. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string>) =>
  new HttpError(400, 'BAD_REQUEST', message, fieldErrors);
export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many requests. Please wait and try again.', undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string>,
) {
  const body: ErrorEnvelope = { code, message, correlationId: request.correlationId };
  if (fieldErrors && Object.keys(fieldErrors).length > 0) body.fieldErrors = fieldErrors;
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Installs the error handler: HttpError -> its status; Fastify's own client errors (bad JSON, body too
 * large, unsupported media type, schema validation) -> 4xx; anything else -> 500 without detail, logged.
 * A module may override by registering its own handler inside its plugin scope (identity does, for
 * Okta's envelope).
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return sendError(request, reply, error.statusCode, error.code, error.message, error.fieldErrors);
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      return sendError(request, reply, 400, 'BAD_REQUEST', 'The request is not valid.', fieldErrorsFrom(fe));
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(request, reply, fe.statusCode, clientCode(fe.statusCode), clientMessage(fe));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(
      request,
      reply,
      500,
      'INTERNAL',
      'Something went wrong on our side. Please try again later.',
    );
  });
}

/** Stable codes for clients; Fastify's internal FST_* codes are not part of our contract. */
function clientCode(status: number): string {
  switch (status) {
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 406:
      return 'NOT_ACCEPTABLE';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'TOO_MANY_REQUESTS';
    default:
      return 'BAD_REQUEST';
  }
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type. Send application/json.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The request body is not valid JSON.';
    default:
      return 'The request is not valid.';
  }
}

function fieldErrorsFrom(error: FastifyError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of error.validation ?? []) {
    const key =
      (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
      String(v.params?.['missingProperty'] ?? 'request');
    out[key] = v.message ?? 'Invalid value';
  }
  return out;
}
