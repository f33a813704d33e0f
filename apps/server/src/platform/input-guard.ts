import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { badRequest, errorStyleOf, sendStyledError } from './errors';

/**
 * Text PostgreSQL cannot store: the NUL character (refused in text) and a UTF-16 surrogate without its
 * pair (no UTF-8 form; it would be stored as U+FFFD, silently changing what the client sent).
 */
// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** How deep to look into a parsed body; deeper values are refused by the contracts anyway. */
const MAX_DEPTH = 64;

/** The dotted paths of every string (keys included) in value that holds unstorable text. */
export function unstorableFields(value: unknown, at = '', depth = 0, found: string[] = []): string[] {
  if (found.length >= 20) return found;
  if (typeof value === 'string') {
    if (unstorable.test(value)) found.push(at || 'request');
  } else if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const name = at ? `${at}.${key}` : key;
      if (unstorable.test(key)) found.push(at || 'request');
      else unstorableFields(item, name, depth + 1, found);
    }
  }
  return found;
}

const refusal = 'Contains characters that are not allowed.';

function refuse(fields: string[]) {
  return badRequest(
    'The request contains characters that are not allowed.',
    Object.fromEntries(fields.map((field) => [field, refusal])),
  );
}

/** The OpenID provider parses its own bodies (up to 56 KB, as it would). */
const PROVIDER_BODY_LIMIT = 56 * 1024;

/**
 * The body, or why there is none: over the limit, or cut off (the connection closed before the body was
 * all in: the client went, or the body stopped arriving and the request was refused, platform/
 * connections.ts). A cut-off body is the client's doing, as it is to Fastify's own body reading.
 */
async function readRawBody(raw: IncomingMessage): Promise<Buffer | 'too large' | 'cut off'> {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of raw.iterator({ destroyOnReturn: false })) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      received += buffer.length;
      if (received > PROVIDER_BODY_LIMIT) return 'too large';
      chunks.push(buffer);
    }
  } catch (error) {
    if (raw.destroyed) return 'cut off';
    throw error;
  }
  return Buffer.concat(chunks, received);
}

/**
 * The OpenID provider (a Koa app answering in onRequest) never sees Fastify's body parsing, so its bodies
 * are read and checked here. The provider then takes the body already read (oidc-provider falls back to
 * `req.body` when the stream has been consumed).
 *
 * Only the bodies the provider itself reads: a form posted (its endpoints that take JSON, dynamic client
 * registration and credential issuance, are not enabled). Any other body it refuses by its content type
 * alone, at once, without reading it. Reading such a body here first made that refusal wait for the whole
 * body, however long it took, and a body that never arrives in full (a Content-Length larger than the
 * bytes sent, as from a client that counts a body's characters in one charset and sends it in another)
 * held the request unanswered. Such a request is now refused before its body has arrived, and its
 * connection closed (platform/connections.ts).
 */
async function checkProviderBody(request: FastifyRequest): Promise<string[] | 'too large' | 'cut off'> {
  if (request.method !== 'POST') return [];
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded')) return [];
  const body = await readRawBody(request.raw);
  if (body === 'too large' || body === 'cut off') return body;
  (request.raw as IncomingMessage & { body?: Buffer }).body = body;
  return unstorableFields(parseQueryString(body.toString('utf8')));
}

/**
 * Refuses text no database can store before any handler runs: a NUL character or a lone surrogate in a
 * path parameter, the query string, a JSON or form body (keys included) is a 400 naming the fields, in
 * the envelope of the service asked (Okta's for the authn API, OAuth's for the OpenID provider, ours
 * elsewhere), so none of it reaches PostgreSQL (which refuses NUL and would answer 500).
 */
export function installInputGuard(app: FastifyInstance, config: Config) {
  const answerOAuth = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
    sendStyledError(request, reply, 'oauth', status, message);

  const checkProvider = async (request: FastifyRequest, reply: FastifyReply, fields: string[]) => {
    if (fields.length > 0) {
      return answerOAuth(request, reply, 400, 'The request contains characters that are not allowed.');
    }
    const body = await checkProviderBody(request);
    if (body === 'too large') return answerOAuth(request, reply, 413, 'The request body is too large.');
    // Nobody is left to read it; answered (400, as Fastify answers a cut-off body) so the request ends.
    if (body === 'cut off') return answerOAuth(request, reply, 400, 'The request body did not arrive.');
    if (body.length > 0) {
      return answerOAuth(request, reply, 400, 'The request contains characters that are not allowed.');
    }
  };

  app.addHook('onRequest', (request, reply, done) => {
    const fields = [...unstorableFields(request.params), ...unstorableFields(request.query)];
    if (errorStyleOf(config, request.url) !== 'oauth')
      return done(fields.length > 0 ? refuse(fields) : undefined);
    // The provider's own calls: its body is read and checked here (answered here when refused).
    checkProvider(request, reply, fields).then(() => {
      if (!reply.sent) done();
    }, done);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined || request.body === null) return done();
    // A body its handler reads as a stream (a PDF, NDJSON lines) is checked there, line by line.
    if (Buffer.isBuffer(request.body) || typeof (request.body as { pipe?: unknown }).pipe === 'function')
      return done();
    const fields = unstorableFields(request.body);
    done(fields.length > 0 ? refuse(fields) : undefined);
  });
}
