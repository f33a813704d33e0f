import { createHash } from 'node:crypto';
import type { CallDefinition } from '@portal/contracts/call';
import { buildOpenApiDocument } from '@portal/contracts/openapi';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

interface RenderedDocument {
  json: string;
  etag: string;
}

// Generating the document walks every contract schema (hundreds of milliseconds), so it is built once
// per set of base URLs, on first request rather than at start: most test apps never ask for it.
const rendered = new Map<string, RenderedDocument>();

function documentFor(config: Config, calls: readonly CallDefinition[]): RenderedDocument {
  const key = JSON.stringify([config.baseUrls, calls.map((c) => c.id)]);
  let doc = rendered.get(key);
  if (!doc) {
    const json = JSON.stringify(buildOpenApiDocument({ servers: config.baseUrls, calls }));
    doc = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
    rendered.set(key, doc);
  }
  return doc;
}

/**
 * Serves the OpenAPI 3.1 document generated from the contracts at GET /api/docs (and /api/docs/), with
 * each operation's server set to its service's configured base URL. Mounted at the site root: it
 * describes every service wherever each lives. `calls` names what to document: the app passes the calls
 * it serves, so the document never lists an operation that would answer 404.
 */
export async function installOpenApi(
  app: FastifyInstance,
  config: Config,
  calls: () => readonly CallDefinition[],
) {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const doc = documentFor(config, calls());
    // The document is public and changes only with a deployment: revalidate rather than re-download.
    reply.header('cache-control', 'no-cache').header('etag', doc.etag);
    if (request.headers['if-none-match'] === doc.etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(doc.json);
  };
  app.get('/api/docs', handler);
  app.get('/api/docs/', handler);
}
