import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  getContentByRelativeUrlCall,
  getFeatureDefinitionsCall,
  getNavigationCall,
  getSiteSettingsCall,
  MAX_RELATIVE_URL_LENGTH,
} from '@portal/contracts/content';
import { badRequest, notFound } from '../../platform/errors';
import { route, SENT, type Sent } from '../../platform/route';
import { defaultContentDir, mediaFileName } from './content.seed';
import type { ContentService, PreparedBody } from './content.service';

/**
 * Content is the same for everyone, and a publish must reach customers within seconds (issue 42): browsers
 * and CDNs may keep it but ask again each time, and its ETag makes the unchanged answer a 304.
 */
const CACHE_CONTROL = 'public, no-cache';
const MEDIA_CACHE_CONTROL = 'public, max-age=86400';

/** Longest query string accepted: a 2 KB relative URL, percent-encoded, plus room for other parameters. */
const MAX_QUERY_LENGTH = MAX_RELATIVE_URL_LENGTH * 3 + 1024;

const mediaTypes: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** Sends a prepared JSON body with its ETag; 304 when the client already has it. */
async function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PreparedBody<unknown>,
): Promise<Sent> {
  await body.body.send(
    request,
    reply.header('Cache-Control', CACHE_CONTROL),
    'application/json; charset=utf-8',
  );
  return SENT;
}

/**
 * Content service HTTP routes (no sign-in needed: content holds no customer data). Query parameters are
 * checked with the contract; bad ones are a 400 with the error envelope, an unknown page a 404.
 */
export async function contentRoutes(app: FastifyInstance, content: ContentService) {
  app.addHook('onRequest', async (request) => {
    const query = request.url.indexOf('?');
    if (query !== -1 && request.url.length - query - 1 > MAX_QUERY_LENGTH) {
      throw badRequest('The request query is too long.', {
        query: `Must be at most ${MAX_QUERY_LENGTH} characters`,
      });
    }
  });

  /**
   * `type` must be SiteSettings (anything else is a 400). `error=true` answers the same settings with
   * `isErrorContext: true`, for the SPA's error page.
   */
  route(app, getSiteSettingsCall, async ({ query, request, reply }) =>
    sendPrepared(request, reply, await content.prepared.siteSettings(query.error === 'true')),
  );

  route(app, getContentByRelativeUrlCall, async ({ query, request, reply }) => {
    const page = await content.prepared.page(query.relativeUrl);
    if (!page) throw notFound('There is no content at that address.');
    return sendPrepared(request, reply, page);
  });

  route(app, getNavigationCall, async ({ request, reply }) =>
    sendPrepared(request, reply, await content.prepared.navigation()),
  );

  route(app, getFeatureDefinitionsCall, async ({ params, request, reply }) => {
    const definitions = await content.prepared.featureDefinitions(params.clientKey);
    if (!definitions) throw notFound('Unknown feature-flag key.');
    return sendPrepared(request, reply, definitions);
  });

  const mediaDir = path.join(defaultContentDir, 'media');
  const mediaCache = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/api/v1/content/media/:file', async (request, reply) => {
    const { file } = request.params;
    const match = mediaFileName.exec(file);
    if (!match) throw notFound('There is no such file.');
    let bytes = mediaCache.get(file);
    if (!bytes) {
      try {
        bytes = await readFile(path.join(mediaDir, file));
      } catch {
        throw notFound('There is no such file.');
      }
      mediaCache.set(file, bytes);
    }
    reply
      .header('Cache-Control', MEDIA_CACHE_CONTROL)
      .type(mediaTypes[match[1]!] ?? 'application/octet-stream');
    // An SVG opened on its own must not run anything.
    if (match[1] === 'svg')
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    // A leaflet downloads under its own name (the file name is checked above: letters, digits, hyphens).
    if (match[1] === 'pdf') reply.header('Content-Disposition', `attachment; filename="${file}"`);
    return reply.send(bytes);
  });
}
