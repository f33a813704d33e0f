import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { normaliseContentPath } from '@portal/contracts/content/paths';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mountPrefix, moduleNames, type Config } from '../config';
import { CONTENT_PREVIEW_PARAM, contentPreviewOf } from './content-preview';
import { sendError } from './errors';
import { buildPageInitSettings } from './page-init';
import { PrecompressedBody } from './precompressed';
import {
  composePage,
  EARLY_SUBMIT_SCRIPT_HASH,
  cssReader,
  experimentCookie,
  experimentIdFrom,
  experimentVariants,
  isServerRendered,
  newExperimentId,
  renderModuleLoader,
  withPublicContent,
} from './server-render';
import { SPA_ROUTES_OUTSIDE_CONTENT } from '@portal/contracts/server-render';
import type { Services } from './services';

/** Vite's hashed build output: a changed file gets a new name, so a year of caching is safe. */
const immutable = 'public, max-age=31536000, immutable';

/** Paths that belong to services, under the site root and under each module's mount prefix. */
const apiRoots = [
  '/api/',
  '/oauth2/',
  '/Registration',
  '/dev/',
  '/healthz',
  '/readyz',
  '/staff/api/',
  '/staff-idp/',
];

/** The staff console's pages (issue 41, decision 038): its own app, never the customers' SPA. */
const isConsolePath = (urlPath: string) => urlPath === '/staff' || urlPath.startsWith('/staff/');

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

function escapeHtmlAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * `<script>` elements without a src that a browser would run: the CSP (script-src 'self') would block
 * them. A JSON data block (the server-rendered page's hydration data) is never run.
 */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)]
    .map((m) => m[0])
    .filter((tag) => !/\ssrc\s*=/i.test(tag) && !/\stype\s*=\s*["']application\/json["']/i.test(tag));
}

/** Puts the settings meta tag into the page head, replacing a placeholder tag if the build has one. */
function injectSettings(html: string, settingsJson: string): string {
  const tag = `<meta name="portal-settings" content="${escapeHtmlAttribute(settingsJson)}">`;
  const placeholder = /<meta\s+name=["']portal-settings["'][^>]*>/i;
  if (placeholder.test(html)) return html.replace(placeholder, () => tag);
  if (/<\/head>/i.test(html)) return html.replace(/<\/head>/i, () => `    ${tag}\n  </head>`);
  return tag + html;
}

/** What each page type needs beyond the app's entry (scripts/page-chunks.mjs, written by the build). */
type PageChunks = Record<string, { js: string[]; css: string[] } | undefined>;

interface Index {
  mtimeMs: number;
  html: string;
  pageChunks: PageChunks;
  /** index.html as sent for each kind of page, made on first use. */
  variants: Map<string, PrecompressedBody>;
  /** The stylesheets index.html links (the app's own), inlined into a server-rendered page. */
  stylesheets: string[];
  /** Server-rendered pages by content snapshot (the page's prepared answer), then path and variants. */
  rendered: WeakMap<object, Map<string, { body: PrecompressedBody; styleHash: string } | null>>;
  /** index.html with a page's public content, by content snapshot (the page's prepared answer). */
  withContent: WeakMap<object, PrecompressedBody>;
  /** The not-found page rendered, by content snapshot (its site settings' prepared answer); null: it cannot be. */
  notFound: WeakMap<object, Promise<{ body: PrecompressedBody; styleHash: string } | null>>;
}

/**
 * The address the not-found page is rendered at, once for every address that has no page: one no content
 * or route of the app has (its loaders are given "no page here" whatever the address).
 */
const NOT_FOUND_RENDER_PATH = '/page-not-found';

/** Where the build's page list keeps the feature-flag SDK (scripts/page-chunks.mjs). */
const EXPERIMENTS = '@experiments';
/** Where it keeps what the SPA's own first render needs at start (page init's schema, the content calls). */
const STARTUP = '@startup';

async function readPageChunks(dist: string): Promise<PageChunks> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path.join(dist, '.vite', 'page-chunks.json'), 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as PageChunks) : {};
  } catch {
    // A build without the list still works: pages then fetch their code once the app asks for it.
    return {};
  }
}

const assetPath = (file: string) => (/^[\w./-]+$/.test(file) && !file.includes('..') ? `/${file}` : null);

/**
 * Adds preload links for a page's own scripts (modulepreload) and styles (preload, not render-blocking)
 * to the head. Vite's loader finds them there and does not fetch them again.
 */
function injectPreloads(html: string, files: { js: string[]; css: string[] }): string {
  const links = [
    ...files.js
      .map(assetPath)
      .filter(Boolean)
      .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
    ...files.css
      .map(assetPath)
      .filter(Boolean)
      .map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
  ];
  if (links.length === 0 || !/<\/head>/i.test(html)) return html;
  return html.replace(/<\/head>/i, () => `    ${links.join('\n    ')}\n  </head>`);
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
 * - the staff console's own HTML (dist/staff.html) at /staff/ and its pages, where the console is;
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
  let index: Index | undefined;
  async function indexHtml(): Promise<Index | undefined> {
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
      const stylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map(
        (m) => m[1]!,
      );
      index = {
        mtimeMs,
        html,
        pageChunks: await readPageChunks(dist),
        variants: new Map(),
        stylesheets,
        rendered: new WeakMap(),
        withContent: new WeakMap(),
        notFound: new WeakMap(),
      };
    }
    return index;
  }

  const content = () => (app.ctx.services as Partial<Services>).content;

  /**
   * The page the content service has for a path: null when it has none, undefined when that cannot be
   * known here (content not in this instance, or not readable just now).
   */
  async function preparedPageAt(urlPath: string) {
    const service = content();
    if (!service) return undefined;
    try {
      return (await service.prepared.page(urlPath)) ?? null;
    } catch {
      return undefined;
    }
  }

  /** The SPA's own routes beside content's pages, and index.html's own address (compared as content paths). */
  const spaRoutes = new Set(
    [...SPA_ROUTES_OUTSIDE_CONTENT, '/index.html'].map((route) => normaliseContentPath(route)),
  );

  /**
   * index.html for one kind of page: naming the SPA's start-up code, that page type's code and styles (and
   * the feature-flag SDK when it runs a content experiment), so they download with the app instead of
   * after it.
   */
  function variantHtml(
    index: Index,
    page: { type: string; experiments: boolean } | undefined,
    { contentCalls = true }: { contentCalls?: boolean } = {},
  ): string {
    const own = page ? index.pageChunks[page.type] : undefined;
    const sdk = page?.experiments ? index.pageChunks[EXPERIMENTS] : undefined;
    // This answer is not server-rendered: the SPA renders it, and needs its start-up code (the content
    // calls) first, unless the answer carries the content those calls would fetch (variantWithContent).
    const startup = contentCalls ? index.pageChunks[STARTUP] : undefined;
    return injectPreloads(index.html, {
      js: [...new Set([...(startup?.js ?? []), ...(own?.js ?? []), ...(sdk?.js ?? [])])],
      css: [...new Set([...(own?.css ?? []), ...(sdk?.css ?? [])])],
    });
  }

  function variantFor(
    index: Index,
    page: { type: string; experiments: boolean } | undefined,
  ): PrecompressedBody {
    const key = page ? `${page.type}${page.experiments ? '+experiments' : ''}` : '';
    let variant = index.variants.get(key);
    if (!variant) {
      variant = new PrecompressedBody(variantHtml(index, page));
      index.variants.set(key, variant);
    }
    return variant;
  }

  /**
   * The same with the page's public content in it (decision 017): the settings, the navigation and the
   * page, as the content service answers anyone. Made once per content snapshot and page. Undefined when
   * the content cannot be read here (the SPA then asks for it as before).
   */
  async function variantWithContent(
    index: Index,
    urlPath: string,
    prepared: NonNullable<Awaited<ReturnType<typeof preparedPageAt>>>,
  ): Promise<PrecompressedBody | undefined> {
    const cached = index.withContent.get(prepared);
    if (cached) return cached;
    const service = content();
    if (!service) return undefined;
    try {
      const [[settings], navigation] = await Promise.all([
        service.prepared.siteSettings(false).then((p) => p.value),
        service.prepared.navigation().then(
          (p) => p.value,
          () => null,
        ),
      ]);
      if (!settings) return undefined;
      const page = prepared.value;
      // With the settings, the navigation and the page in it, the SPA makes no content call when it starts,
      // so their code is not preloaded (5.4 KB a signed-in page, issue 27); it loads when the customer
      // moves on. Without the navigation the SPA fetches it at once, and its code is named as before.
      const html = withPublicContent(
        variantHtml(
          index,
          { type: page.type, experiments: page.experiments.length > 0 },
          { contentCalls: navigation === null },
        ),
        { path: normaliseContentPath(urlPath), settings, navigation, page },
      );
      const body = new PrecompressedBody(html);
      index.withContent.set(prepared, body);
      return body;
    } catch {
      return undefined;
    }
  }

  const loadRenderer = renderModuleLoader(dist, app.log);
  const readCss = cssReader(dist);
  const secureCookies = config.publicUrl.startsWith('https:');

  /**
   * The page rendered on the server (decision 016), or undefined when it is not one the server renders or
   * rendering is not possible (no render module, content elsewhere, a loader that would redirect). Pages
   * without a query string are rendered once per content snapshot and visitor variant, and compressed
   * once; the rest per request.
   */
  async function serverRendered(
    request: FastifyRequest,
    reply: FastifyReply,
    index: Index,
    prepared: NonNullable<Awaited<ReturnType<typeof preparedPageAt>>>,
  ): Promise<{ body: PrecompressedBody | string; styleHash: string } | undefined> {
    const page = prepared.value;
    const service = content();
    if (!service || !isServerRendered(page)) return undefined;
    const render = await loadRenderer();
    if (!render) return undefined;
    const url = new URL(request.url, config.publicUrl);

    let experiments: ReturnType<typeof experimentVariants> = { flags: {}, viewed: [] };
    if (page.experiments.length > 0) {
      let id = experimentIdFrom(request.headers.cookie);
      if (!id) {
        id = newExperimentId();
        reply.header('Set-Cookie', experimentCookie(id, secureCookies));
      }
      const definitions = await service.prepared
        .featureDefinitions(config.featureFlagSdkKey)
        .then((d) => d?.value)
        // Without definitions every experiment shows its control, as in the SPA.
        .catch(() => undefined);
      experiments = experimentVariants(page, definitions, id);
    }

    const key = `${url.pathname}|${JSON.stringify(experiments)}`;
    const cacheable = url.search === '';
    let byPage = index.rendered.get(prepared);
    const cached = cacheable ? byPage?.get(key) : undefined;
    if (cached !== undefined) return cached ?? undefined;

    let result: { body: PrecompressedBody | string; styleHash: string } | null = null;
    try {
      const rendered = await renderWithContent(service, render, url, page, experiments);
      if (rendered) {
        const own = index.pageChunks[page.type]?.css ?? [];
        const css = await readCss([...index.stylesheets, ...own]);
        const composed = composePage(index.html, rendered, {
          text: css,
          hrefs: index.stylesheets.map((f) => `/${f}`),
        });
        const withPreloads = injectPreloads(composed.html, {
          js: index.pageChunks[page.type]?.js ?? [],
          css: [],
        });
        result = {
          body: cacheable ? new PrecompressedBody(withPreloads) : withPreloads,
          styleHash: composed.styleHash,
        };
      }
    } catch (error) {
      // Content unavailable, a build without the page's files, a render that threw: the SPA's own page.
      request.log.error(
        { err: error, pageType: page.type },
        'Server rendering failed; the browser renders the page',
      );
      return undefined;
    }
    if (cacheable) {
      if (!byPage) {
        byPage = new Map();
        index.rendered.set(prepared, byPage);
      }
      byPage.set(key, result as { body: PrecompressedBody; styleHash: string } | null);
    }
    return result ?? undefined;
  }

  /** Renders a page (null: the not-found page) with the site settings and navigation content holds now. */
  async function renderWithContent(
    service: NonNullable<ReturnType<typeof content>>,
    render: NonNullable<Awaited<ReturnType<typeof loadRenderer>>>,
    url: URL,
    page: Parameters<typeof render.renderPage>[0]['page'],
    experiments: ReturnType<typeof experimentVariants>,
  ) {
    const [[siteSettings], navigation] = await Promise.all([
      service.prepared.siteSettings(url.searchParams.get('error') === 'true').then((p) => p.value),
      service.prepared.navigation().then(
        (p) => p.value,
        () => null,
      ),
    ]);
    if (!siteSettings) return undefined;
    return render.renderPage({
      url: url.href,
      pageInit: settings,
      settings: siteSettings,
      navigation,
      page,
      ...experiments,
    });
  }

  /**
   * The not-found page rendered on the server, for an address that is neither content's nor the app's:
   * readable without JavaScript (no "turn on JavaScript" note), hydrated with the not-found route's data,
   * so the SPA asks content for nothing. It says the same whatever the address, so it is rendered once
   * per content snapshot, at an address of its own, and compressed once: a stream of requests for made-up
   * addresses costs no rendering (issue 38). Undefined when it cannot be rendered here (the SPA's page).
   */
  async function renderedNotFound(
    request: FastifyRequest,
    index: Index,
  ): Promise<{ body: PrecompressedBody; styleHash: string } | undefined> {
    const service = content();
    const render = service && (await loadRenderer());
    if (!service || !render) return undefined;
    let snapshot: object;
    try {
      snapshot = await service.prepared.siteSettings(false);
    } catch (error) {
      request.log.error({ err: error }, 'Rendering the not-found page failed; the browser renders it');
      return undefined;
    }
    let made = index.notFound.get(snapshot);
    if (!made) {
      made = (async () => {
        try {
          const url = new URL(NOT_FOUND_RENDER_PATH, config.publicUrl);
          const rendered = await renderWithContent(service, render, url, null, { flags: {}, viewed: [] });
          if (!rendered) return null;
          const css = await readCss(index.stylesheets);
          const page = composePage(index.html.replace(/\s*<noscript>[\s\S]*?<\/noscript>/i, ''), rendered, {
            text: css,
            hrefs: index.stylesheets.map((f) => `/${f}`),
          });
          return { body: new PrecompressedBody(page.html), styleHash: page.styleHash };
        } catch (error) {
          request.log.error({ err: error }, 'Rendering the not-found page failed; the browser renders it');
          // Not kept: the next request tries again.
          index.notFound.delete(snapshot);
          return null;
        }
      })();
      index.notFound.set(snapshot, made);
    }
    return (await made) ?? undefined;
  }

  function allowInlineHashes(reply: FastifyReply, styleHash: string) {
    // The rendered page's inline style and its submit guard are allowed by their hashes, for this answer only.
    const csp = reply.getHeader('Content-Security-Policy');
    if (typeof csp === 'string') {
      reply.header(
        'Content-Security-Policy',
        csp
          .replace(/style-src ([^;]*)/, (_all, sources: string) => `style-src ${sources} ${styleHash}`)
          .replace(
            /script-src ([^;]*)/,
            (_all, sources: string) => `script-src ${sources} ${EARLY_SUBMIT_SCRIPT_HASH}`,
          ),
      );
    }
  }

  /**
   * A content draft's preview (issue 42, platform/content-preview.ts): the customers' SPA with the draft's
   * public content in it, never cached, and framed only by this origin's pages (the console shows it at a
   * phone's and a desktop's width). Undefined when the address asks for no preview; a token that is not
   * live answers 404.
   */
  async function previewAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    index: Index,
    requestPath: string,
  ): Promise<FastifyReply | undefined> {
    const query = request.url.includes('?') ? new URLSearchParams(request.url.split('?')[1]) : undefined;
    const token = query?.get(CONTENT_PREVIEW_PARAM);
    if (!token) return undefined;
    const port = contentPreviewOf(app.ctx);
    const payload = port ? await port(token, requestPath) : null;
    if (!payload) return sendError(request, reply, 404, 'NOT_FOUND', 'This preview has ended.');
    const csp = reply.getHeader('Content-Security-Policy');
    if (typeof csp === 'string')
      reply.header(
        'Content-Security-Policy',
        csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
      );
    reply.header('X-Frame-Options', 'SAMEORIGIN').header('Cache-Control', 'no-store');
    const html = withPublicContent(
      variantHtml(
        index,
        { type: payload.page.type, experiments: payload.page.experiments.length > 0 },
        { contentCalls: false },
      ),
      payload,
    );
    return reply.type('text/html; charset=utf-8').send(html);
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
    const requestPath = request.url.split('?')[0] ?? '/';
    const preview = await previewAnswer(request, reply, page, requestPath);
    if (preview !== undefined) return preview;
    const prepared = await preparedPageAt(requestPath);
    reply.header('Cache-Control', 'no-cache');
    // An address nobody has a page for: a 404, with the not-found page as the SPA would show it.
    if (prepared === null && !spaRoutes.has(normaliseContentPath(requestPath))) {
      reply.code(404);
      const notFound = await renderedNotFound(request, page);
      if (notFound) {
        allowInlineHashes(reply, notFound.styleHash);
        return notFound.body.send(request, reply, 'text/html; charset=utf-8', { etag: false });
      }
      return reply.type('text/html; charset=utf-8').send(variantHtml(page, undefined));
    }
    const rendered = prepared && (await serverRendered(request, reply, page, prepared));
    if (rendered) {
      allowInlineHashes(reply, rendered.styleHash);
      if (typeof rendered.body === 'string')
        return reply.type('text/html; charset=utf-8').send(rendered.body);
      return rendered.body.send(request, reply, 'text/html; charset=utf-8');
    }
    // A page the SPA renders itself gets its public content with it; not with a query string, which may
    // ask for other settings (`?error=true`): such a page reads its content as before.
    const [urlPath, query] = request.url.split('?');
    const withContent =
      prepared && query === undefined ? await variantWithContent(page, urlPath ?? '/', prepared) : undefined;
    if (withContent) return withContent.send(request, reply, 'text/html; charset=utf-8');
    const value = prepared?.value;
    const variant = variantFor(
      page,
      value && { type: value.type, experiments: value.experiments.length > 0 },
    );
    return variant.send(request, reply, 'text/html; charset=utf-8');
  }

  /*
   * The staff console (decision 038): its own HTML (dist/staff.html, built apart from the customers' app)
   * at /staff/ and every page below it that no route of the staff module answers (those are its calls,
   * sign-in and callback), with the same headers as every answer and no page init (its calls are on this
   * origin). Only where the console is: the staff module on this instance with a workforce provider;
   * elsewhere /staff/ is not found, never the customers' SPA. Its files are in dist/assets with theirs.
   */
  const consoleFile = path.join(dist, 'staff.html');
  const consoleServed = config.modules.has('staff') && config.staff.provider !== null;
  let consoleHtml: { mtimeMs: number; body: PrecompressedBody } | undefined;

  async function consolePage(): Promise<PrecompressedBody | undefined> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(consoleFile)).mtimeMs;
    } catch {
      consoleHtml = undefined;
      return undefined;
    }
    if (consoleHtml?.mtimeMs !== mtimeMs) {
      const html = await readFile(consoleFile, 'utf8');
      if (inlineScripts(html).length > 0) {
        app.log.error({ file: consoleFile }, 'staff.html has inline script; the CSP blocks it');
      }
      consoleHtml = { mtimeMs, body: new PrecompressedBody(html) };
    }
    return consoleHtml.body;
  }

  async function sendConsole(request: FastifyRequest, reply: FastifyReply) {
    if (!consoleServed) return sendError(request, reply, 404, 'NOT_FOUND', 'Not found');
    const page = await consolePage();
    if (!page) {
      return sendError(
        request,
        reply,
        503,
        'STAFF_CONSOLE_NOT_BUILT',
        `The staff console has not been built (no ${consoleFile}). Run \`npm run build\`, then reload.`,
      );
    }
    reply.header('Cache-Control', 'no-cache');
    return page.send(request, reply, 'text/html; charset=utf-8');
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
    // index.html only ever goes out with its settings, staff.html at the console's addresses; compressed
    // copies go out through preCompressed; a directory is a deep link, not a listing.
    allowedPath: (pathName) =>
      pathName !== '/index.html' &&
      pathName !== '/staff.html' &&
      !pathName.endsWith('/') &&
      !/\.(br|gz)$/.test(pathName),
    setHeaders: (res, filePath) => {
      const relative = path.relative(dist, filePath).split(path.sep);
      res.setHeader('Cache-Control', relative[0] === 'assets' ? immutable : 'no-cache');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (isConsolePath(urlPath) && !isApiPath(urlPath)) {
      const consolePage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !hasFileExtension(urlPath) &&
        acceptsHtml(request.headers.accept);
      return consolePage
        ? sendConsole(request, reply)
        : sendError(request, reply, 404, 'NOT_FOUND', 'Not found');
    }
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
