import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { oktaErrorCodes } from '@portal/contracts';
import { mountPrefix, type Config } from '../config';
import { correlationIdOf } from './request-context';

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
    /** Further fields of the envelope a call's contract declares (a 409's `heldVersion`). */
    readonly extra?: Record<string, unknown>,
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
  extra?: Record<string, unknown>,
) {
  const body: ErrorEnvelope = { ...extra, code, message, correlationId: request.correlationId };
  if (fieldErrors && Object.keys(fieldErrors).length > 0) body.fieldErrors = fieldErrors;
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Which envelope a path's errors are answered in: Okta's for the identity service's authn API, OAuth's
 * (`{error, error_description}`) for the OpenID provider, the project's everywhere else. The same split
 * as the identity module's own error handler, for errors raised before any route is found.
 */
export type ErrorStyle = 'okta' | 'oauth' | 'project';

/** The identity service's path prefix, by configuration (worked out once: every request asks). */
const identityPrefixes = new WeakMap<Config, string>();

export function errorStyleOf(config: Config, url: string): ErrorStyle {
  if (!config.modules.has('identity')) return 'project';
  const path = url.split('?')[0]!;
  let identity = identityPrefixes.get(config);
  if (identity === undefined) {
    identity = mountPrefix(config.baseUrls.identity);
    identityPrefixes.set(config, identity);
  }
  if (path === `${identity}/api/v1/authn` || path.startsWith(`${identity}/api/v1/authn/`)) return 'okta';
  if (path.startsWith(`${identity}/oauth2/`)) return 'oauth';
  return 'project';
}

/** The body of a refusal in the given envelope (never echoing what the client sent). */
function styledBody(style: ErrorStyle, status: number, message: string, correlationId: string): object {
  if (style === 'okta') {
    const errorCode =
      status === 400 || status === 413 || status === 414 || status === 415 || status === 431
        ? status === 400
          ? oktaErrorCodes.validation
          : oktaErrorCodes.malformed
        : status === 404
          ? oktaErrorCodes.notFound
          : oktaErrorCodes.internal;
    return {
      errorCode,
      errorSummary: message,
      errorLink: errorCode,
      errorId: correlationId,
      errorCauses: [],
    };
  }
  if (style === 'oauth') {
    return { error: status >= 500 ? 'server_error' : 'invalid_request', error_description: message };
  }
  return { code: clientCode(status), message, correlationId };
}

/** Answers a refusal in the envelope of `style`, with the request's correlation id. */
export function sendStyledError(
  request: FastifyRequest,
  reply: FastifyReply,
  style: ErrorStyle,
  status: number,
  message: string,
) {
  const body = styledBody(style, status, message, request.correlationId || correlationIdOf(request.raw));
  if (style === 'oauth') reply.header('Cache-Control', 'no-store');
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Fastify's `frameworkErrors`: a URL that does not decode (400) or a path parameter over the length limit
 * (414), raised before any hook runs. Answered in the path's envelope with a correlation id, without
 * echoing the URL.
 */
export function frameworkErrorHandler(config: Config): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    const correlationId = correlationIdOf(request.raw);
    request.correlationId = correlationId;
    reply.header('X-CorrelationId', correlationId);
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    const style = errorStyleOf(config, request.raw.url ?? '/');
    return sendStyledError(
      request,
      reply,
      style,
      tooLong ? 414 : 400,
      tooLong ? 'The address is too long.' : 'The address is not valid.',
    );
  };
}

/** Longest request line (method, URL, version) answered as 414 rather than 431 when headers overflow. */
const MAX_REQUEST_LINE = 8 * 1024;

/**
 * Node's own refusals, before Fastify sees a request (a request line or headers over the size limit,
 * unparseable HTTP): the right status (414 for a URL too long, 431 for headers, 408, 400) in the path's
 * envelope with a correlation id, never echoing what was sent.
 */
export function clientErrorHandler(config: Config) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
    const lineEnd = packet.indexOf('\r\n');
    const requestLine = lineEnd === -1 ? packet : packet.slice(0, lineEnd);
    const target = /^[A-Z]+ (\S+)/.exec(requestLine)?.[1] ?? '/';
    let status: 400 | 408 | 414 | 431 = 400;
    let message = 'The request is not valid HTTP.';
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      message = 'The request took too long to arrive.';
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      const urlTooLong = lineEnd === -1 || requestLine.length > MAX_REQUEST_LINE;
      status = urlTooLong ? 414 : 431;
      message = urlTooLong ? 'The address is too long.' : 'The request headers are too large.';
    }
    refuseOnSocket(config, socket, status, message, target);
  };
}

/**
 * A refusal written on the socket itself, with `Connection: close`, and the socket closed: for a request
 * no response object can answer (Node refused it) or one whose body stopped arriving
 * (platform/connections.ts). In the envelope of the path asked, never echoing what was sent.
 */
export function refuseOnSocket(
  config: Config,
  socket: Socket,
  status: 400 | 408 | 414 | 431,
  message: string,
  target: string,
  correlationId: string = randomUUID(),
) {
  const body = JSON.stringify(styledBody(errorStyleOf(config, target), status, message, correlationId));
  const reason = {
    400: 'Bad Request',
    408: 'Request Timeout',
    414: 'URI Too Long',
    431: 'Request Header Fields Too Large',
  }[status];
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-CorrelationId: ${correlationId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
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
      if (error.statusCode >= 500) request.log.warn({ err: error.cause ?? error }, error.message);
      if (error.headers) reply.headers(error.headers);
      return sendError(
        request,
        reply,
        error.statusCode,
        error.code,
        error.message,
        error.fieldErrors,
        error.extra,
      );
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
    case 414:
      return 'URI_TOO_LONG';
    case 408:
      return 'REQUEST_TIMEOUT';
    case 431:
      return 'HEADERS_TOO_LARGE';
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
