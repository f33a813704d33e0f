import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mountPrefix, moduleNames, type Config } from '../config';
import { sendError } from './errors';
import { buildPageInitSettings } from './page-init';
import { PrecompressedBody } from './precompressed';

/** Vite's hashed build output: a changed file gets a new name, so a year of caching is safe. */
const immutable = 'public, max-age=31536000, immutable';

/** Paths that belong to services, under the site root and under each module's mount prefix. */
const apiRoots = ['/api/', '/oauth2/', '/Registration', '/dev/', '/healthz', '/readyz'];

/** Whether a path is a service path: such paths never fall back to the SPA, they answer JSON. */
export function apiPathMatcher(config: Config): (urlPath: string) => boolean {
  const prefixes = [...new Set(['', ...moduleNames.map((m) => mountPrefix(config.baseUrls[m]))])];
  const roots = prefixes.flatMap((prefix) => apiRoots.map((root) => prefix + root));
  return (urlPath) =>
    roots.some((root) =>
      root.endsWith('/')
        ? urlPath.startsWith(root) || urlPath === root.slice(0, -1)
        : urlPath === root || urlPath.startsWith(`${root}/`),
    );
}

export function escapeHtmlAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** `<script>` elements without a src: the CSP (script-src 'self') would block them. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]).filter((tag) => !/\ssrc\s*=/i.test(tag));
}

/** Puts the settings meta tag into the page head, replacing a placeholder tag if the build has one. */
export function injectSettings(html: string, settingsJson: string): string {
  const tag = `<meta name="portal-settings" content="${escapeHtmlAttribute(settingsJson)}">`;
  const placeholder = /<meta\s+name=["']portal-settings["'][^>]*>/i;
  if (placeholder.test(html)) return html.replace(placeholder, () => tag);
  if (/<\/head>/i.test(html)) return html.replace(/<\/head>/i, () => `    ${tag}\n  </head>`);
  return tag + html;
}

function acceptsHtml(accept: string | undefined): boolean {
  return !accept || /text\/html|application\/xhtml\+xml|\*\/\*/i.test(accept);
}

const hasFileExtension = (urlPath: string) => /\.[A-Za-z0-9]+$/.test(urlPath.split('/').pop() ?? '');

/**
 * Serves the built SPA from `config.webDistDir`:
 * - hashed files under /assets/ with a year of immutable caching (precompressed .br/.gz when the build
 *   made them, compressed on the fly otherwise); other files of the build with revalidation;
 * - index.html, with the page-init settings in a meta tag (no inline script, so the CSP holds), never
 *   cached without revalidation, for `/` and every deep link a browser opens;
 * - the same settings at GET /app-settings.json;
 * - a JSON 404 for service paths, files that do not exist and non-browser callers;
 * - a 503 saying what to do when the SPA has not been built, instead of failing.
 */
export async function installSpa(app: FastifyInstance, config: Config) {
  const settings = buildPageInitSettings(config);
  const settingsJson = JSON.stringify(settings);
  const dist = path.resolve(config.webDistDir);
  const indexFile = path.join(dist, 'index.html');
  const isApiPath = apiPathMatcher(config);

  // Re-read when the file changes, so a rebuild under a running server is picked up.
  let index: { mtimeMs: number; html: PrecompressedBody; etag: string } | undefined;
  async function indexHtml(): Promise<typeof index> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(indexFile)).mtimeMs;
    } catch {
      index = undefined;
      return undefined;
    }
    if (index?.mtimeMs !== mtimeMs) {
      const html = injectSettings(await readFile(indexFile, 'utf8'), settingsJson);
      const inline = inlineScripts(html);
      if (inline.length > 0) {
        app.log.error(
          { file: indexFile, count: inline.length },
          'index.html has inline script; the CSP blocks it',
        );
      }
      index = {
        mtimeMs,
        html: new PrecompressedBody(html),
        // Weak: the same page goes out in several encodings.
        etag: `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
      };
    }
    return index;
  }

  async function sendIndex(request: FastifyRequest, reply: FastifyReply) {
    const page = await indexHtml();
    if (!page) {
      return sendError(
        request,
        reply,
        503,
        'WEB_APP_NOT_BUILT',
        `The web app has not been built (no ${indexFile}). Run \`npm run build\`, then reload.`,
      );
    }
    reply.header('Cache-Control', 'no-cache').header('ETag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
    return page.html.send(request, reply.status(200), 'text/html; charset=utf-8');
  }

  app.get('/app-settings.json', async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return settings;
  });

  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    index: false,
    list: false,
    redirect: false,
    dotfiles: 'deny',
    preCompressed: true,
    cacheControl: false,
    // index.html only ever goes out with its settings; compressed copies go out through preCompressed;
    // a directory is a deep link, not a listing.
    allowedPath: (pathName) =>
      pathName !== '/index.html' && !pathName.endsWith('/') && !/\.(br|gz)$/.test(pathName),
    setHeaders: (res, filePath) => {
      const relative = path.relative(dist, filePath).split(path.sep);
      res.setHeader('Cache-Control', relative[0] === 'assets' ? immutable : 'no-cache');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const browserPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(urlPath) &&
      (urlPath === '/index.html' || !hasFileExtension(urlPath)) &&
      acceptsHtml(request.headers.accept);
    if (browserPage) return sendIndex(request, reply);
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(urlPath) &&
      !(await indexHtml())
    ) {
      return sendIndex(request, reply);
    }
    return sendError(request, reply, 404, 'NOT_FOUND', 'Not found');
  });
}
