/* global console, process */
/**
 * Which files each page type of the SPA needs beyond the app's entry, from Vite's manifest and the SPA's
 * page-type registry. `npm run build:web` writes it to apps/web/dist/.vite/page-chunks.json so that the
 * server can name a page's code in the HTML it sends (modulepreload): the browser then fetches it while
 * the app itself downloads, instead of after the app has started and asked for the page's content. The
 * bundle report (bench/bundle-report.ts) sizes routes with the same functions.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webRoot = path.join(root, 'apps', 'web');
export const manifestFile = path.join(webRoot, 'dist', '.vite', 'manifest.json');
export const pageChunksFile = path.join(webRoot, 'dist', '.vite', 'page-chunks.json');

/** The chunk and everything it imports statically: what the browser must fetch before it runs. */
export function staticClosure(manifest, key, into = new Set()) {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, into);
  return into;
}

/** The SPA's source files (tests left out). */
function webSources() {
  const sources = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) sources.push(full);
    }
  };
  walk(path.join(webRoot, 'src'));
  return sources;
}

/** The manifest key of the module an import in `fromFile` names, if the build has it. */
function keyOf(manifest, fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, `${base}/index.tsx`, `${base}/index.ts`]) {
    const key = path.relative(webRoot, candidate).split(path.sep).join('/');
    if (manifest[key]) return key;
  }
  return undefined;
}

/** Page type -> manifest key of the module that renders it, read from the SPA's registry source. */
export function pageTypeModules(manifest) {
  const sources = webSources();
  const toKey = (fromFile, spec) => keyOf(manifest, fromFile, spec);

  const result = new Map();
  const registry = sources.find((f) => f.endsWith(path.join('app', 'page-registry.tsx')));
  if (registry) {
    const text = readFileSync(registry, 'utf8');
    const named = new Map();
    for (const m of text.matchAll(/const\s+(\w+)\s*=\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const key = toKey(registry, m[2]);
      if (key) named.set(m[1], key);
    }
    for (const m of text.matchAll(
      /^\s*(\w+)\s*:\s*(?:\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)|(\w+))\s*,/gm,
    )) {
      const key = m[2] ? toKey(registry, m[2]) : named.get(m[3]);
      if (key) result.set(m[1], key);
    }
  }
  // Features may register their page types elsewhere: registerPageType('Type', () => import('...')).
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /registerPageType\(\s*['"](\w+)['"]\s*,\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const key = toKey(file, m[2]);
      if (key) result.set(m[1], key);
    }
  }
  return result;
}

/**
 * Content block type -> manifest key of the feature block that renders it, read from the SPA's block
 * registry (apps/web/src/app/block-registry.ts). Content's own block types are not lazy and have none.
 */
export function blockTypeModules(manifest) {
  const registry = path.join(webRoot, 'src', 'app', 'block-registry.ts');
  const result = new Map();
  const text = readFileSync(registry, 'utf8');
  for (const m of text.matchAll(/^\s*(\w+)\s*:\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)\s*,/gm)) {
    const key = keyOf(manifest, registry, m[2]);
    if (key) result.set(m[1], key);
  }
  return result;
}

/**
 * The shell's chunks (by the bundler's chunk name) that a signed-in page does not load when it opens, and
 * what loads them (decision 029). Each is imported with import() only there (session/tokens.ts,
 * session/sign-out.ts, app/layout/app-layout.tsx, content's calls); the dashboard journey checks that
 * opening the dashboard fetches none of them. The bundle report does not count them for a signed-in page,
 * and the sign-in code pages do not fetch them ahead (the token client comes with those pages anyway).
 */
export const onDemandShellChunks = {
  'token-client':
    'a token renewal (a minute before the access token expires, an expired token at a call or a start, a tab shown after 30 minutes hidden), the sign-in callback, revoking the refresh token at sign-out',
  cancel: 'signing out while a sign-in transaction is open',
  'end-current-session': 'signing out',
  'content-modal': 'the sign-out question (Sign out in the header)',
  drafts: 'an idle sign-out (what a form was typing is kept: issue 40)',
  'shared-view-calls':
    "the contact centre's read-only view of a customer's account only: its pages and its end (issue 41)",
  'content-calls':
    'moving to another page (its content), or a page opened without its content in the HTML (with a query string, or the navigation unavailable)',
};

/**
 * The signed-in shell's chunks: what the entry imports with import(), without the pages (the page types'
 * modules and the router's own lazy routes, `*-page.tsx`: the sign-in callback page) and the features'
 * blocks (loaded by the pages whose content names them). `firstRender`: every signed-in page loads them at
 * its first render (the customer's data, the inactivity timer, the content renderer, page init's schema);
 * `onDemand`: only an event loads them (onDemandShellChunks). Any chunk not named there is first-render,
 * so a new one is counted until someone shows it is on demand. Manifest keys.
 */
export function shellChunkKeys(manifest) {
  const entry = entryKey(manifest);
  const pageModules = new Set(pageTypeModules(manifest).values());
  const blockModules = new Set(blockTypeModules(manifest).values());
  const shell = (manifest[entry]?.dynamicImports ?? []).filter(
    (k) => !pageModules.has(k) && !/-page\.tsx$/.test(k) && !blockModules.has(k),
  );
  const onDemand = shell.filter((k) => (manifest[k]?.name ?? '') in onDemandShellChunks);
  return { firstRender: shell.filter((k) => !onDemand.includes(k)), onDemand };
}

/**
 * What a signed-in page loads when it is opened (decision 029's rule, which the bundle report counts): the
 * entry with what it imports, its page type's module, the shell's first-render chunks and the feature
 * blocks its content names, each with what it imports. Manifest keys.
 */
export function signedInPageKeys(manifest, { type, blocks }) {
  const keys = staticClosure(manifest, entryKey(manifest));
  const pageModule = pageTypeModules(manifest).get(type);
  if (pageModule) staticClosure(manifest, pageModule, keys);
  for (const key of shellChunkKeys(manifest).firstRender) staticClosure(manifest, key, keys);
  const blockModules = blockTypeModules(manifest);
  for (const block of blocks) {
    const key = blockModules.get(block);
    if (key) staticClosure(manifest, key, keys);
  }
  return keys;
}

/**
 * The scripts the sign-in code pages fetch ahead, while the customer reads their code, for the signed-in
 * pages they then pass (decision 033): what each of `pages` loads when opened (signedInPageKeys) and the
 * router's lazy routes on the way there (the sign-in callback page, where the browser comes back from the
 * identity provider), less the entry and what it imports, which the code page has already. Scripts only:
 * a signed-in page's styles are the two sheets every page has. File names, each once.
 */
export function signedInPrefetch(manifest, pages) {
  const entry = entryKey(manifest);
  const pageModules = new Set(pageTypeModules(manifest).values());
  const keys = new Set();
  for (const page of pages) for (const key of signedInPageKeys(manifest, page)) keys.add(key);
  for (const key of manifest[entry]?.dynamicImports ?? []) {
    if (/-page\.tsx$/.test(key) && !pageModules.has(key)) staticClosure(manifest, key, keys);
  }
  const loadedByEntry = staticClosure(manifest, entry);
  return filesOf(
    manifest,
    [...keys].filter((k) => !loadedByEntry.has(k)),
  ).js;
}

/**
 * The pages a customer passes after signing in when nothing else was asked for (site settings): the account
 * root (`accountRootPage`, the marketing step, which sends a customer who has answered it on) and the
 * dashboard (`dashboardPage`), each with its page type and the block types its content names (experiments'
 * variants' included), from content/ as the build finds it. None when content cannot be read.
 */
export function signedInWay(contentRoot = path.join(root, 'content')) {
  try {
    const settings = JSON.parse(readFileSync(path.join(contentRoot, 'site-settings.json'), 'utf8'));
    const pagesDir = path.join(contentRoot, 'pages');
    const pages = readdirSync(pagesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(path.join(pagesDir, f), 'utf8')));
    return [settings.accountRootPage, settings.dashboardPage].flatMap((url) => {
      const page = pages.find((p) => p.url === url && typeof p.type === 'string');
      if (!page) return [];
      const blocks = [
        ...(page.blocks ?? []),
        ...(page.experiments ?? []).flatMap((e) => e.variants.flatMap((v) => v.blocks ?? [])),
      ].map((b) => b.type);
      return [{ url: page.url, type: page.type, blocks: [...new Set(blocks)] }];
    });
  } catch {
    // No content beside the app: nothing to name.
    return [];
  }
}

/** The entry chunk's manifest key. */
export function entryKey(manifest) {
  return Object.keys(manifest).find((k) => manifest[k].isEntry);
}

/** Files (under the build's root) of a set of manifest keys: scripts and style sheets. */
export function filesOf(manifest, keys) {
  const js = new Set();
  const css = new Set();
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) continue;
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    if (chunk.file.endsWith('.css')) css.add(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
  }
  return { js: [...js], css: [...css] };
}

/** The key under which pageChunks lists the feature-flag SDK, which pages with content experiments need. */
export const EXPERIMENTS = '@experiments';

/**
 * The key under which pageChunks lists what the SPA's own first render needs at start beyond the entry:
 * page init's schema and the content calls (apps/web/src/main.tsx). A page the server rendered loads them
 * after it works; any other page waits for them, so they are named in its HTML too.
 */
export const STARTUP = '@startup';

/** The manifest key of the module whose files STARTUP lists (with what it imports): the content calls. */
export function startupKey(manifest) {
  return Object.keys(manifest).find((k) => k.endsWith('src/content/api/content-calls.ts'));
}

/**
 * For each page type: the scripts and style sheets it needs that the entry does not already load; under
 * EXPERIMENTS, the feature-flag SDK that a page running a content experiment waits for; and under
 * STARTUP, what a page the SPA renders itself needs before its first content call.
 */
export function pageChunks(manifest) {
  const entry = entryKey(manifest);
  const loadedByEntry = entry ? staticClosure(manifest, entry) : new Set();
  const own = (key) => [...staticClosure(manifest, key)].filter((k) => !loadedByEntry.has(k));
  const result = {};
  for (const [type, key] of pageTypeModules(manifest)) result[type] = filesOf(manifest, own(key));
  const sdk = Object.keys(manifest).find((k) => k.includes('@growthbook/growthbook-react/'));
  if (sdk) result[EXPERIMENTS] = filesOf(manifest, own(sdk));
  const contentCalls = startupKey(manifest);
  if (contentCalls) result[STARTUP] = filesOf(manifest, own(contentCalls));
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const chunks = pageChunks(manifest);
  writeFileSync(pageChunksFile, `${JSON.stringify(chunks, null, 2)}\n`);
  console.log(
    `page-chunks: ${Object.keys(chunks).length} page types -> ${path.relative(root, pageChunksFile)}`,
  );
}
