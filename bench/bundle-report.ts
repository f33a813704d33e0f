/**
 * Bundle report: the gzip size of the JavaScript and CSS each route of the portal loads, against the
 * budget (issue 15, superseding decision 008's: the login route at most 130 KB of JavaScript in at most
 * 12 files; any route under 200 KB of JavaScript and CSS).
 *
 * Run with `npm run bench:bundle` (builds the web app first). Reads Vite's manifest
 * (apps/web/dist/.vite/manifest.json, needs `build.manifest: true`), the page-type registry of the SPA
 * (which lazy module renders each page type) and content/pages (which page type each route has). A
 * route loads the entry with everything it imports, plus its page type's lazy chunk with everything
 * that imports; signed-in routes also count the shell's other on-demand chunks (for example the
 * inactivity modal and the content calls), so their figure is an upper bound. The router's own lazy route
 * (the sign-in callback page) is another route's page and is not counted. Exits 1 when a route is over budget.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  entryKey as findEntry,
  filesOf,
  manifestFile,
  pageTypeModules,
  staticClosure,
  type Manifest,
} from '../scripts/page-chunks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webRoot = path.join(root, 'apps', 'web');
const dist = path.join(webRoot, 'dist');
const pagesDir = path.join(root, 'content', 'pages');
const KB = 1024;
export const budgets = { loginJs: 130 * KB, loginJsFiles: 12, routeTotal: 200 * KB };

export interface RouteRow {
  route: string;
  pageType: string;
  signedIn: boolean;
  jsBytes: number;
  cssBytes: number;
  files: number;
  /** The JavaScript files the route loads, with their gzip sizes. */
  jsFiles: Array<{ file: string; bytes: number }>;
  problems: string[];
}

function fail(message: string): never {
  console.error(`bundle report: ${message}`);
  process.exit(2);
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

interface PageFile {
  url: string;
  type: string;
  requiresAuthentication?: boolean;
}

export function routeRows(manifest: Manifest): RouteRow[] {
  const entryKey = findEntry(manifest);
  if (!entryKey) fail('the manifest has no entry chunk');
  const modules = pageTypeModules(manifest);
  const pageModuleKeys = new Set(modules.values());
  // The shell's on-demand chunks, without the pages of other routes: the content page types' modules, the
  // router's own lazy route (the sign-in callback page, which a signed-in page never shows) and the
  // features' content blocks (app/block-registry.ts: each loaded by the pages whose content has it).
  const shellExtras = (manifest[entryKey]?.dynamicImports ?? []).filter(
    (k) => !pageModuleKeys.has(k) && !/-page\.tsx$/.test(k) && !/^src\/features\/[^/]+\/blocks\//.test(k),
  );

  const pages: PageFile[] = readdirSync(pagesDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(pagesDir, f), 'utf8')) as PageFile)
    .filter((p) => typeof p.url === 'string' && typeof p.type === 'string')
    .sort((a, b) => a.url.localeCompare(b.url));

  return pages.map((page) => {
    const problems: string[] = [];
    const chunks = staticClosure(manifest, entryKey);
    const moduleKey = modules.get(page.type);
    if (moduleKey) staticClosure(manifest, moduleKey, chunks);
    else problems.push(`no lazy module found for page type ${page.type}`);
    if (page.requiresAuthentication) for (const extra of shellExtras) staticClosure(manifest, extra, chunks);

    const { js, css } = filesOf(manifest, chunks);
    const jsBytes = [...js].reduce((n, f) => n + gzipSize(f), 0);
    const cssBytes = [...css].reduce((n, f) => n + gzipSize(f), 0);
    const isLogin = page.url === '/login';
    if (isLogin && jsBytes > budgets.loginJs)
      problems.push(`login JavaScript over ${budgets.loginJs / KB} KB`);
    if (isLogin && js.length > budgets.loginJsFiles)
      problems.push(`login JavaScript in more than ${budgets.loginJsFiles} files`);
    if (jsBytes + cssBytes >= budgets.routeTotal) problems.push(`over ${budgets.routeTotal / KB} KB`);
    return {
      route: page.url,
      pageType: page.type,
      signedIn: Boolean(page.requiresAuthentication),
      jsBytes,
      cssBytes,
      files: js.length + css.length,
      jsFiles: [...js].map((file) => ({ file, bytes: gzipSize(file) })).sort((a, b) => b.bytes - a.bytes),
      problems,
    };
  });
}

function kb(bytes: number): string {
  return (bytes / KB).toFixed(1);
}

function printTable(rows: RouteRow[]): void {
  const header = ['Route', 'Page type', 'JS KB', 'CSS KB', 'Total KB', 'Files', 'Verdict'];
  const body = rows.map((r) => [
    r.route + (r.signedIn ? ' *' : ''),
    r.pageType,
    kb(r.jsBytes),
    kb(r.cssBytes),
    kb(r.jsBytes + r.cssBytes),
    String(r.files),
    r.problems.length === 0 ? 'ok' : `OVER: ${r.problems.join('; ')}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const numeric = new Set([2, 3, 4, 5]);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}

/**
 * Where the sign-in route's JavaScript goes, largest first, and the part no portal code can remove: the
 * React runtime and React Router (the stack the architecture fixes), against the login budget.
 */
function printLoginBreakdown(login: RouteRow): void {
  const name = (file: string) => path.basename(file).replace(/-[\w-]{8}\.js$/, '');
  // React and React Router come in one file (apps/web/vite.config.ts): the part no portal code can
  // remove. The schema library (vendor-zod) comes later, with the first call.
  const vendor = login.jsFiles.find((f) => name(f.file) === 'vendor');
  const floor = vendor?.bytes ?? 0;
  console.log(`\n/login JavaScript, ${kb(login.jsBytes)} KB in ${login.jsFiles.length} files:`);
  const shown = login.jsFiles.slice(0, 12);
  for (const f of shown) console.log(`  ${kb(f.bytes).padStart(6)}  ${name(f.file)}`);
  const rest = login.jsFiles.slice(shown.length);
  if (rest.length > 0) {
    console.log(`  ${kb(rest.reduce((n, f) => n + f.bytes, 0)).padStart(6)}  ${rest.length} smaller files`);
  }
  console.log(
    `React and React Router (vendor): ${kb(floor)} KB, ${(floor / budgets.loginJs).toFixed(2)} of the ` +
      `${budgets.loginJs / KB} KB login budget before any portal code (decisions 008, 016).`,
  );
}

function main(): void {
  if (!existsSync(path.join(dist, 'index.html'))) fail('no web build; run `npm run build:web` first');
  if (!existsSync(manifestFile)) {
    fail(
      'apps/web/dist/.vite/manifest.json is missing: the web build needs `build: { manifest: true }` in apps/web/vite.config.ts',
    );
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const rows = routeRows(manifest);
  if (rows.length === 0) fail(`no pages found in ${path.relative(root, pagesDir)}`);

  console.log('Bundle report: gzip -9 size of what each route loads (KB = 1024 bytes)\n');
  printTable(rows);
  console.log('\n* signed-in route: includes the shell chunks loaded on demand (upper bound)');
  console.log(
    `Budget: /login JavaScript at most ${budgets.loginJs / KB} KB in at most ${budgets.loginJsFiles} files; ` +
      `every route JavaScript + CSS < ${budgets.routeTotal / KB} KB`,
  );
  const login = rows.find((r) => r.route === '/login');
  if (!login) console.log('Note: no /login page in content; the login budget was not checked.');
  else printLoginBreakdown(login);
  const over = rows.filter((r) => r.problems.length > 0);
  if (over.length > 0) {
    console.log(`\nVerdict: FAIL, ${over.length} route(s) over budget or unmapped`);
    process.exit(1);
  }
  console.log(`\nVerdict: PASS, ${rows.length} routes within budget`);
}

main();
