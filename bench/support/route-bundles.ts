/**
 * What each route of the portal loads, from Vite's manifest (apps/web/dist/.vite/manifest.json), the SPA's
 * page-type and block registries and content/pages. Shared by the bundle report (bench/bundle-report.ts)
 * and the browser journey that checks its rule against what Chromium fetches (e2e/dashboard.spec.ts).
 *
 * The rule: a route counts the files it fetches when it is opened, before anyone does anything on it:
 * - the entry with everything it imports, and its page type's lazy module with everything that imports;
 * - not the content calls' start-up files (`@startup` in page-chunks.json): a page the SPA renders itself
 *   (every signed-in page, and the public ones the server does not render: `isServerRendered`) is opened
 *   with its public content in its HTML (decision 017), so the server does not name them (issue 27) and the
 *   SPA fetches them only when the visitor moves on; a server-rendered page fetches them after it works
 *   (decision 016). (The same page opened with a query string reads its content itself and fetches them.)
 * - a signed-in page also the shell's chunks every signed-in page loads at its first render (the customer's
 *   data, the inactivity timer, the content renderer, page init's schema), and the feature blocks its
 *   content names (app/block-registry.ts), which it loads beside its data.
 * Not counted, and listed as "on demand" with what loads them: the shell's chunks that only an event
 * loads (`onDemandShellChunks` in scripts/page-chunks.mjs: the token client, the sign-out calls, the
 * sign-out question, the content calls). Any other
 * chunk the shell can load is counted, so a new one is in the figure until someone shows it is on demand.
 * The build applies the same rule to list what the sign-in code pages fetch ahead (decision 033).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { PageContent } from '@portal/contracts/content';
import { isServerRendered } from '../../apps/server/src/platform/server-render';
import {
  blockTypeModules,
  entryKey as findEntry,
  filesOf,
  manifestFile,
  onDemandShellChunks,
  pageTypeModules,
  shellChunkKeys,
  staticClosure,
  type Manifest,
} from '../../scripts/page-chunks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.join(root, 'apps', 'web', 'dist');
const pagesDir = path.join(root, 'content', 'pages');
export const KB = 1024;
export const budgets = { loginJs: 130 * KB, loginJsFiles: 12, routeTotal: 200 * KB };
/** Issue 27's target for the signed-in dashboard's JavaScript (not a budget: the report does not fail on it). */
export const dashboardTarget = { route: '/account/dashboard', js: 150 * KB };

export interface FileSize {
  file: string;
  bytes: number;
}

interface OnDemand {
  /** The chunk the shell imports; `files` are what it adds to the page (itself and what it imports). */
  chunk: string;
  when: string;
  files: FileSize[];
}

export interface RouteRow {
  route: string;
  pageType: string;
  signedIn: boolean;
  /** The SPA renders the page itself (the server does not): it also loads the start-up files. */
  spaRendered: boolean;
  jsBytes: number;
  cssBytes: number;
  files: number;
  /** The JavaScript files the route loads, with their gzip sizes, largest first. */
  jsFiles: FileSize[];
  /** Those of them that only the content's feature blocks bring (loaded beside the page's data). */
  blockFiles: FileSize[];
  /** The content's feature block types. */
  blocks: string[];
  /** Shell chunks not loaded when the route opens, each with what loads it (signed-in routes). */
  onDemand: OnDemand[];
  problems: string[];
}

const gzipCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

const sized = (files: Iterable<string>): FileSize[] =>
  [...files].map((file) => ({ file, bytes: gzipSize(file) })).sort((a, b) => b.bytes - a.bytes);

export const sum = (files: readonly FileSize[]) => files.reduce((n, f) => n + f.bytes, 0);

/** A file's name without its hash: `assets/vendor-oidc-BGS-n5kS.js` -> `vendor-oidc`. */
export const chunkName = (file: string) => path.basename(file).replace(/-[\w-]{8}\.(js|css)$/, '');

export function readManifest(): Manifest {
  return JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
}

/** The content pages with their URL, type and blocks (content/pages/*.json). */
function contentPages(): PageContent[] {
  return readdirSync(pagesDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(pagesDir, f), 'utf8')) as PageContent)
    .filter((p) => typeof p.url === 'string' && typeof p.type === 'string')
    .sort((a, b) => a.url.localeCompare(b.url));
}

/** The page's block types, its experiments' variants' included. */
function blockTypesOf(page: PageContent): string[] {
  const blocks = [
    ...(page.blocks ?? []),
    ...(page.experiments ?? []).flatMap((e) => e.variants.flatMap((v) => v.blocks)),
  ];
  return [...new Set(blocks.map((b) => b.type))];
}

export function routeRows(manifest: Manifest): RouteRow[] {
  const entryKey = findEntry(manifest);
  if (!entryKey) throw new Error('the manifest has no entry chunk');
  const modules = pageTypeModules(manifest);
  const blockModules = blockTypeModules(manifest);
  // The shell's other chunks (scripts/page-chunks.mjs, shared with the build's list of what the sign-in
  // code pages fetch ahead, decision 033): those every signed-in page loads at its first render, and those
  // only an event loads (not counted; listed under the dashboard with the event).
  const { firstRender: firstRenderKeys, onDemand: onDemandKeys } = shellChunkKeys(manifest);

  return contentPages().map((page) => {
    const problems: string[] = [];
    const signedIn = Boolean(page.requiresAuthentication);
    const spaRendered = !isServerRendered(page);
    const chunks = staticClosure(manifest, entryKey);
    const moduleKey = modules.get(page.type);
    if (moduleKey) staticClosure(manifest, moduleKey, chunks);
    else problems.push(`no lazy module found for page type ${page.type}`);
    if (signedIn) for (const key of firstRenderKeys) staticClosure(manifest, key, chunks);
    const pageJs = new Set(filesOf(manifest, chunks).js);

    const blocks = blockTypesOf(page).filter((type) => blockModules.has(type));
    for (const type of blocks) staticClosure(manifest, blockModules.get(type)!, chunks);

    const { js, css } = filesOf(manifest, chunks);
    const jsFiles = sized(js);
    const jsBytes = sum(jsFiles);
    const cssBytes = sum(sized(css));
    const isLogin = page.url === '/login';
    if (isLogin && jsBytes > budgets.loginJs)
      problems.push(`login JavaScript over ${budgets.loginJs / KB} KB`);
    if (isLogin && js.length > budgets.loginJsFiles)
      problems.push(`login JavaScript in more than ${budgets.loginJsFiles} files`);
    if (jsBytes + cssBytes >= budgets.routeTotal) problems.push(`over ${budgets.routeTotal / KB} KB`);

    const counted = new Set(js);
    const onDemand: OnDemand[] = signedIn
      ? onDemandKeys.map((key) => ({
          chunk: manifest[key]!.name ?? key,
          when: onDemandShellChunks[manifest[key]!.name ?? ''] ?? '',
          files: sized(filesOf(manifest, staticClosure(manifest, key)).js.filter((f) => !counted.has(f))),
        }))
      : [];

    return {
      route: page.url,
      pageType: page.type,
      signedIn,
      spaRendered,
      jsBytes,
      cssBytes,
      files: js.length + css.length,
      jsFiles,
      blockFiles: jsFiles.filter((f) => !pageJs.has(f.file)),
      blocks,
      onDemand,
      problems,
    };
  });
}

/** The staff console's build manifest (apps/web/vite.staff.config.ts, decision 038). */
export const consoleManifestFile = path.join(dist, '.vite', 'staff-manifest.json');

export interface ConsoleRow {
  /** What its first screen (Find a customer, /staff/) loads: the entry with what it imports. */
  jsBytes: number;
  cssBytes: number;
  jsFiles: FileSize[];
  /** Each page loaded when opened (the record, the audit trail): what it adds to the first screen's. */
  lazy: Array<{ page: string; files: FileSize[] }>;
}

/**
 * The staff console's figures (issue 41 point 7: no more JavaScript than the customer's dashboard), from
 * its own manifest: the first screen is its entry (staff.html) with everything that imports statically.
 */
export function consoleRow(manifest: Manifest): ConsoleRow {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('the staff console manifest has no entry chunk');
  const first = staticClosure(manifest, entry);
  const { js, css } = filesOf(manifest, first);
  const jsFiles = sized(js);
  const lazy = (manifest[entry]!.dynamicImports ?? []).map((key) => ({
    page: path.basename(key).replace(/\.tsx?$/, ''),
    files: sized(filesOf(manifest, staticClosure(manifest, key)).js.filter((f) => !js.includes(f))),
  }));
  return { jsBytes: sum(jsFiles), cssBytes: sum(sized(css)), jsFiles, lazy };
}

/**
 * Files both apps' routes load (decision 038: none). The console's build is apart from the customers', so a
 * shared file would mean one build wrote the other's; each build also fails on holding the other's code.
 */
export function sharedFiles(rows: readonly RouteRow[], console: ConsoleRow): string[] {
  const consoleFiles = new Set(console.jsFiles.map((f) => f.file));
  for (const page of console.lazy) for (const f of page.files) consoleFiles.add(f.file);
  return [...new Set(rows.flatMap((r) => r.jsFiles.map((f) => f.file)))].filter((f) => consoleFiles.has(f));
}
