import { createHash, randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GrowthBook, type FeatureDefinition } from '@growthbook/growthbook';
import type { FeatureDefinitions, PageContent } from '@portal/contracts/content';
import {
  EARLY_SUBMIT_SCRIPT,
  HYDRATION_ELEMENT_ID,
  PUBLIC_CONTENT_ELEMENT_ID,
  type ExperimentViewed,
  type PublicContentPayload,
  type RenderPage,
} from '@portal/contracts/server-render';
import type { FastifyBaseLogger } from 'fastify';

/*
 * Server rendering of the public pages (decision 016). The web build makes one module for it
 * (apps/web/src/entry-server.tsx -> dist/.ssr/entry-server.js); this file loads it, decides which
 * requests it renders, picks the visitor's experiment variants and puts the result into index.html.
 */

/** What the web build's render module exports. */
interface RenderModule {
  renderPage: RenderPage;
}

/**
 * Page types whose first screen depends on what only the browser holds (the sign-in transaction in
 * session storage): the SPA renders them itself. Signed-in pages are never rendered on the server.
 */
const browserOnlyPageTypes = new Set([
  'AuthenticationVerificationPage',
  'AuthenticationChallengePage',
  'RedirectPage',
  'PolicyRedirectPage',
]);

export function isServerRendered(page: PageContent): boolean {
  return !page.requiresAuthentication && !page.isMaintenanceMode && !browserOnlyPageTypes.has(page.type);
}

/** The experiment user id's cookie: the server's copy of the id the SPA keeps in local storage. */
const EXPERIMENT_COOKIE = 'experimentUserId';
const experimentIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The visitor's experiment user id from the request's cookies, if it is one we could have made. */
export function experimentIdFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name === EXPERIMENT_COOKIE && value && experimentIdPattern.test(value)) return value;
  }
  return undefined;
}

export function newExperimentId(): string {
  return randomUUID();
}

export function experimentCookie(id: string, secure: boolean): string {
  return `${EXPERIMENT_COOKIE}=${id}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The variant of each of the page's experiments for this id, evaluated by the GrowthBook SDK from the
 * same definitions and attribute as the SPA's (lib/feature-flags), so both pick the same variant. A flag
 * that names no variant of the experiment is left out: the page then shows its control, as the SPA does.
 * `viewed` is what the SDK's tracking callback would report, for the page to send to analytics itself.
 */
export function experimentVariants(
  page: PageContent,
  definitions: FeatureDefinitions | undefined,
  id: string,
): { flags: Record<string, string>; viewed: ExperimentViewed[] } {
  const flags: Record<string, string> = {};
  const viewed: ExperimentViewed[] = [];
  if (page.experiments.length === 0) return { flags, viewed };
  const gb = new GrowthBook({
    attributes: { id },
    // Our contract's definitions are GrowthBook's own shape (content/README.md).
    features: (definitions?.features ?? {}) as Record<string, FeatureDefinition>,
  });
  try {
    for (const experiment of page.experiments) {
      const result = gb.evalFeature(experiment.key);
      const variant = experiment.variants.find((v) => v.id === result.value) ?? experiment.variants[0];
      if (variant) flags[experiment.key] = variant.id;
      if (result.source === 'experiment' && result.experiment && result.experimentResult?.inExperiment) {
        viewed.push({
          experimentId: result.experiment.key,
          variationId: String(result.experimentResult.key),
        });
      }
    }
  } finally {
    gb.destroy();
  }
  return { flags, viewed };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON safe inside a `<script type="application/json">` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * index.html for a page the SPA renders itself, with the page's public content as a JSON data block before
 * `</body>` (decision 017): the SPA's first render then waits for no content call and parses no content.
 * Only what the content service gives anyone goes in (no customer data), so the page can be cached.
 */
export function withPublicContent(html: string, content: PublicContentPayload): string {
  if (!/<\/body>/i.test(html)) return html;
  return html.replace(
    /<\/body>/i,
    () =>
      `    <script type="application/json" id="${PUBLIC_CONTENT_ELEMENT_ID}">${scriptJson(content)}</script>\n  </body>`,
  );
}

/**
 * The CSP source that allows a rendered page's submit guard (decision 031: a form sent before the SPA has the
 * page is held, not sent natively), and nothing else inline.
 */
export const EARLY_SUBMIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(EARLY_SUBMIT_SCRIPT).digest('base64')}'`;

const ROOT_OUTLET = /<div id="root">[\s\S]*?<!--\/root-outlet-->\s*<\/div>/;

/**
 * index.html with a rendered page: the title, #root filled, the hydration data before `</body>`, and the
 * page's styles inline in place of the stylesheet links (no request stands between the HTML and the first
 * paint), and the submit guard. Returns the HTML and the hash of the inline style for the CSP (the guard's is
 * EARLY_SUBMIT_SCRIPT_HASH).
 */
export function composePage(
  indexHtml: string,
  rendered: { html: string; hydration: unknown; title: string },
  css: { text: string; hrefs: string[] },
): { html: string; styleHash: string } {
  const styleHash = `'sha256-${createHash('sha256').update(css.text).digest('base64')}'`;
  let html = indexHtml.replace(
    /<title>[\s\S]*?<\/title>/,
    () => `<title>${escapeHtml(rendered.title)}</title>`,
  );
  for (const href of css.hrefs) {
    html = html.replace(
      new RegExp(
        `\\s*<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`,
      ),
      '',
    );
  }
  html = html.replace(
    /<\/head>/i,
    () => `    <style>${css.text}</style>\n    <script>${EARLY_SUBMIT_SCRIPT}</script>\n  </head>`,
  );
  html = html.replace(ROOT_OUTLET, () => `<div id="root">${rendered.html}</div>`);
  html = html.replace(
    /<\/body>/i,
    () =>
      `    <script type="application/json" id="${HYDRATION_ELEMENT_ID}">${scriptJson(rendered.hydration)}</script>\n  </body>`,
  );
  return { html, styleHash };
}

/** Loads the render module of the current build (again after a rebuild); undefined without one. */
export function renderModuleLoader(dist: string, log: FastifyBaseLogger) {
  const file = path.join(dist, '.ssr', 'entry-server.js');
  let loaded: { mtimeMs: number; module: RenderModule | undefined } | undefined;
  return async (): Promise<RenderModule | undefined> => {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(file)).mtimeMs;
    } catch {
      return undefined;
    }
    if (loaded?.mtimeMs !== mtimeMs) {
      let module: RenderModule | undefined;
      try {
        module = (await import(`${pathToFileURL(file).href}?v=${mtimeMs}`)) as RenderModule;
      } catch (error) {
        log.error(
          { err: error },
          'The server-rendering module could not be loaded; pages render in the browser',
        );
      }
      loaded = { mtimeMs, module };
    }
    return loaded.module;
  };
}

/** The text of the build's CSS files, read once each (their names carry a hash of their content). */
export function cssReader(dist: string) {
  const cache = new Map<string, Promise<string>>();
  return (files: string[]): Promise<string> =>
    Promise.all(
      files.map((file) => {
        let text = cache.get(file);
        if (!text) {
          text = readFile(path.join(dist, file), 'utf8');
          // A file that could not be read is tried again next time.
          text.catch(() => cache.delete(file));
          cache.set(file, text);
        }
        return text;
      }),
    ).then((texts) => texts.join('\n'));
}
