/**
 * Bundle report: the gzip size of the JavaScript and CSS each route of the portal loads, against the
 * budget (issue 15, superseding decision 008's: the login route at most 130 KB of JavaScript in at most
 * 12 files; any route under 200 KB of JavaScript and CSS), and the signed-in dashboard against issue 27's
 * target (at most 150 KB of JavaScript; printed, not enforced).
 *
 * The staff console (issue 41, decision 038) is its own build with its own manifest: its first screen is
 * printed against the dashboard's JavaScript (its target: no more; the report fails when it is over), and
 * the report fails if a file is loaded by both apps.
 *
 * Run with `npm run bench:bundle` (builds the web app first). Reads Vite's manifest
 * (apps/web/dist/.vite/manifest.json, needs `build.manifest: true`), the SPA's page-type and block
 * registries and content/pages. What a route counts is in bench/support/route-bundles.ts: the files it
 * fetches when opened, before anyone does anything on it. The dashboard journey (e2e/dashboard.spec.ts)
 * checks that rule against what Chromium fetches, file for file. Exits 1 when a route is over budget.
 *
 * The rule changed with issue 27 (decision 029). Signed-in routes used to count every chunk the shell can
 * load, as an upper bound, and none of their content's blocks; public pages the server does not render
 * did not count the start-up files the server preloads for them. Now:
 * - out of the signed-in routes' figures, listed under the dashboard with the event that loads each:
 *   token-client with vendor-oidc (oidc-client-ts; a renewal, the sign-in callback, the revocation at
 *   sign-out), cancel and end-current-session with okta-error (signing out), content-modal (the sign-out
 *   question; the dashboard loads it anyway for its own messages);
 * - into them: the feature blocks their content names (the dashboard's six: 10.3 KB), which they fetch;
 * - into the public pages the server does not render (the sign-in steps, the redirect page): the start-up
 *   files, content-calls and what it imports (signed-in routes counted them already).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestFile } from '../scripts/page-chunks.mjs';
import { existsSync, readFileSync } from 'node:fs';
import type { Manifest } from '../scripts/page-chunks.mjs';
import {
  budgets,
  chunkName,
  consoleManifestFile,
  consoleRow,
  dashboardTarget,
  KB,
  readManifest,
  routeRows,
  sharedFiles,
  sum,
  type ConsoleRow,
  type FileSize,
  type RouteRow,
} from './support/route-bundles';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps', 'web', 'dist');

function fail(message: string): never {
  console.error(`bundle report: ${message}`);
  process.exit(2);
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

const name = (file: string) => chunkName(file);

function printFiles(files: readonly FileSize[], indent = '  ', shown = files.length): void {
  for (const f of files.slice(0, shown)) console.log(`${indent}${kb(f.bytes).padStart(6)}  ${name(f.file)}`);
  const rest = files.slice(shown);
  if (rest.length > 0) console.log(`${indent}${kb(sum(rest)).padStart(6)}  ${rest.length} smaller files`);
}

/**
 * Where the sign-in route's JavaScript goes, largest first, and the part no portal code can remove: the
 * React runtime and React Router (the stack the architecture fixes), against the login budget.
 */
function printLoginBreakdown(login: RouteRow): void {
  // React and React Router come in one file (apps/web/vite.config.ts): the part no portal code can
  // remove. The schema library (vendor-zod) comes later, with the first call.
  const vendor = login.jsFiles.find((f) => name(f.file) === 'vendor');
  const floor = vendor?.bytes ?? 0;
  console.log(`\n/login JavaScript, ${kb(login.jsBytes)} KB in ${login.jsFiles.length} files:`);
  printFiles(login.jsFiles, '  ', 12);
  console.log(
    `React and React Router (vendor): ${kb(floor)} KB, ${(floor / budgets.loginJs).toFixed(2)} of the ` +
      `${budgets.loginJs / KB} KB login budget before any portal code (decisions 008, 016).`,
  );
}

/**
 * The signed-in dashboard (issue 27): its files, the part its content's blocks bring, what it does not
 * load until an event asks for it, and the shared code it does not load at all (the forms').
 */
function printDashboardBreakdown(dashboard: RouteRow, rows: readonly RouteRow[]): void {
  const blockFiles = new Set(dashboard.blockFiles.map((f) => f.file));
  const pageFiles = dashboard.jsFiles.filter((f) => !blockFiles.has(f.file));
  const over = dashboard.jsBytes - dashboardTarget.js;
  console.log(
    `\n${dashboard.route} JavaScript, ${kb(dashboard.jsBytes)} KB in ${dashboard.jsFiles.length} files ` +
      `(issue 27's target: at most ${dashboardTarget.js / KB} KB; ` +
      `${over > 0 ? `not met, ${kb(over)} KB over` : 'met'}):`,
  );
  console.log(`  ${kb(sum(pageFiles))} KB the app, the start-up files, the page and the signed-in shell:`);
  printFiles(pageFiles, '    ', 14);
  console.log(`  ${kb(sum(dashboard.blockFiles))} KB its content's blocks (${dashboard.blocks.join(', ')}):`);
  printFiles(dashboard.blockFiles, '    ', 6);
  console.log('  Not loaded when it opens, not counted: each comes on demand, with the event named:');
  for (const od of dashboard.onDemand) {
    if (od.files.length === 0) {
      console.log(`         ${od.chunk}: on ${od.when} (this page loads it already)`);
      continue;
    }
    const files = od.files.map((f) => `${name(f.file)} ${kb(f.bytes)}`).join(' + ');
    console.log(`    ${kb(sum(od.files)).padStart(6)}  ${files}: on ${od.when}`);
  }
  // Shared code other routes load that this one does not: named when it is the forms' (issue 27 moved
  // it out of the signed-in pages' way).
  const loadedHere = new Set(dashboard.jsFiles.map((f) => f.file));
  const forms = rows
    .flatMap((r) => r.jsFiles)
    .find((f) => name(f.file) === 'forms' && !loadedHere.has(f.file));
  if (forms)
    console.log(
      `  Not loaded at all: forms ${kb(forms.bytes)} KB (the forms' code, with the pages that have forms)`,
    );
}

/**
 * The staff console (issue 41 point 7, decision 038): its first screen's JavaScript against the dashboard's
 * (its target: no more), the pages it loads when opened, and that no file is loaded by both apps. Returns
 * the problems.
 */
function printConsole(staff: ConsoleRow, rows: readonly RouteRow[]): string[] {
  const problems: string[] = [];
  const dashboard = rows.find((r) => r.route === dashboardTarget.route);
  console.log(
    `\nStaff console /staff/ (Find a customer), its own build: JavaScript ${kb(staff.jsBytes)} KB in ` +
      `${staff.jsFiles.length} files, CSS ${kb(staff.cssBytes)} KB` +
      (dashboard
        ? ` (target: no more JavaScript than ${dashboard.route}, ${kb(dashboard.jsBytes)} KB; ` +
          `${staff.jsBytes <= dashboard.jsBytes ? `met, ${kb(dashboard.jsBytes - staff.jsBytes)} KB less` : 'NOT MET'}):`
        : ':'),
  );
  printFiles(staff.jsFiles, '    ');
  console.log('  Loaded when opened, on top of the first screen:');
  for (const page of staff.lazy) {
    console.log(
      `    ${kb(sum(page.files)).padStart(6)}  ${page.page} (${page.files.map((f) => name(f.file)).join(' + ')})`,
    );
  }
  if (dashboard && staff.jsBytes > dashboard.jsBytes) {
    problems.push(`the staff console's JavaScript is over the dashboard's`);
  }
  const shared = sharedFiles(rows, staff);
  if (shared.length > 0)
    problems.push(`files loaded by both the customers' routes and the console: ${shared.join(', ')}`);
  else console.log('  No file of the console is loaded by a customer route, nor the other way round.');
  return problems;
}

function main(): void {
  if (!existsSync(path.join(dist, 'index.html'))) fail('no web build; run `npm run build:web` first');
  if (!existsSync(manifestFile)) {
    fail(
      'apps/web/dist/.vite/manifest.json is missing: the web build needs `build: { manifest: true }` in apps/web/vite.config.ts',
    );
  }
  let rows: RouteRow[];
  try {
    rows = routeRows(readManifest());
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (rows.length === 0) fail('no pages found in content/pages');

  console.log('Bundle report: gzip -9 size of what each route loads when opened (KB = 1024 bytes)\n');
  printTable(rows);
  console.log(
    "\n* signed-in route: includes the shell chunks every signed-in page loads and its content's blocks;" +
      ' the chunks only an event loads are listed below the dashboard',
  );
  console.log(
    `Budget: /login JavaScript at most ${budgets.loginJs / KB} KB in at most ${budgets.loginJsFiles} files; ` +
      `every route JavaScript + CSS < ${budgets.routeTotal / KB} KB`,
  );
  const login = rows.find((r) => r.route === '/login');
  if (!login) console.log('Note: no /login page in content; the login budget was not checked.');
  else printLoginBreakdown(login);
  const dashboard = rows.find((r) => r.route === dashboardTarget.route);
  if (dashboard) printDashboardBreakdown(dashboard, rows);
  let consoleProblems: string[];
  if (!existsSync(consoleManifestFile)) {
    consoleProblems = ['no staff console build (apps/web/dist/.vite/staff-manifest.json)'];
  } else {
    consoleProblems = printConsole(
      consoleRow(JSON.parse(readFileSync(consoleManifestFile, 'utf8')) as Manifest),
      rows,
    );
  }
  const over = rows.filter((r) => r.problems.length > 0);
  if (over.length > 0 || consoleProblems.length > 0) {
    console.log(
      `\nVerdict: FAIL, ${over.length} route(s) over budget or unmapped` +
        (consoleProblems.length > 0 ? `; the staff console: ${consoleProblems.join('; ')}` : ''),
    );
    process.exit(1);
  }
  console.log(
    `\nVerdict: PASS, ${rows.length} routes within budget, and the staff console within its target`,
  );
}

main();
