import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin, Rolldown } from 'vite';
import { defineConfig } from 'vitest/config';
import { appBoundary } from '../../scripts/app-boundary.mjs';
import { signedInPrefetch, signedInWay, type Manifest } from '../../scripts/page-chunks.mjs';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.PORTAL_DEV_API ?? 'http://localhost:3000';

/**
 * How the build groups modules into files (decisions 016, 029). A slow connection pays for every request,
 * so the first page of a visit should need few files: the libraries every page runs (React, React Router)
 * come in one long-cached file, everything the app's start statically needs in the entry, what renders a
 * content page's body in one more, and the code the public pages' forms share in another (what the
 * sign-in form uses), which pages without a form never load. The parts only the other forms use (codes,
 * dates, choices, the modal) and the rest stay split by page and block, loaded when used.
 */
const chunkGroups = [
  { name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
  // The schema library: for the calls' answers and page init, none of which a server-rendered page needs
  // before it works (main.tsx).
  { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 3 },
  { name: 'vendor-query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 3 },
  { name: 'vendor-oidc', test: /node_modules[\\/](oidc-client-ts|jwt-decode)[\\/]/, priority: 3 },
  // The small contract modules every call shares (and page init's schema), in one file rather than several.
  {
    name: 'contracts',
    test: /packages[\\/]contracts[\\/]src[\\/](page-init|call|common|fields)\.ts/,
    includeDependenciesRecursively: false,
    priority: 3,
  },
  // What the app's start imports statically, together with the entry rather than in shared pieces.
  { name: 'app', tags: ['$initial' as const], priority: 2 },
  // What every content page shares, signed in or not: the body's renderers (blocks, rich text, calls to
  // action, experiment slots) and the small pieces both they and the forms build on (button, placeholders,
  // the field rules the call contracts use). Apart from the forms' own code, so that a page without a form
  // (the dashboard above all) does not download it (issue 27).
  {
    name: 'content',
    test: /(apps[\\/]web[\\/]src[\\/](content[\\/](content-blocks|rich-text|call-to-action|content-page-body|blocks[\\/][\w-]+)\.tsx|lib[\\/]feature-flags[\\/]|lib[\\/]forms[\\/]fill-placeholders\.ts|components[\\/]ui[\\/]((button|class-names|visually-hidden|spinner)\.tsx?|ui\.css)))|contracts[\\/]src[\\/](field-rules|content[\\/]rich-text-rules)\.ts/,
    minShareCount: 2,
    includeDependenciesRecursively: false,
    priority: 1,
  },
  // The code the public forms share (fields, error summary, validation, form state, the sign-in steps'
  // messages), in one file with the sign-in form's.
  {
    name: 'forms',
    test: /apps[\\/]web[\\/]src[\\/](components[\\/]ui[\\/](?!(modal|code-input|checkbox|checkbox-group|radio-group|choice-item|resend-button|use-countdown|fieldset|date-of-birth-field|summary-row|password-requirements|button|class-names|visually-hidden|spinner|ui)\.)|lib[\\/](forms|validation)[\\/]|features[\\/]auth[\\/](components|utils)[\\/])/,
    minShareCount: 2,
    includeDependenciesRecursively: false,
    priority: 1,
  },
];

/** The chunk graph as it is rendered, keyed as Vite's manifest is, for scripts/page-chunks.mjs's rules. */
function manifestOf(chunks: Record<string, Rolldown.RenderedChunk>): Manifest {
  const keyOf = new Map<string, string>();
  for (const chunk of Object.values(chunks)) {
    const facade = chunk.facadeModuleId;
    keyOf.set(
      chunk.fileName,
      facade && path.isAbsolute(facade)
        ? path.relative(webRoot, facade).split(path.sep).join('/')
        : `_${path.basename(chunk.fileName)}`,
    );
  }
  const keys = (files: readonly string[]) => files.flatMap((file) => keyOf.get(file) ?? []);
  return Object.fromEntries(
    Object.values(chunks).map((chunk) => [
      keyOf.get(chunk.fileName)!,
      {
        file: chunk.fileName,
        name: chunk.name,
        isEntry: chunk.isEntry,
        isDynamicEntry: chunk.isDynamicEntry,
        imports: keys(chunk.imports),
        dynamicImports: keys(chunk.dynamicImports),
      },
    ]),
  );
}

/**
 * `virtual:signed-in-code`: the scripts the sign-in code pages fetch ahead for the pages the customer then
 * passes (decision 033): the sign-in callback page, the account root (the marketing step) and the
 * dashboard, each as bench:bundle counts a signed-in page (scripts/page-chunks.mjs). The list is written
 * into its chunk as the chunks are rendered, with the bundler's placeholders for their hashes: the final
 * names go in, and the list's own chunk's hash follows them. Empty in development, in tests and in the
 * server-rendering build.
 */
function signedInCode(): Plugin {
  const id = 'virtual:signed-in-code';
  const marker = '__PORTAL_SIGNED_IN_CODE__';
  let build = false;
  return {
    name: 'portal:signed-in-code',
    configResolved(config) {
      build = config.command === 'build' && !config.build.ssr;
    },
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (loaded) =>
      loaded === `\0${id}` ? `export default ${build ? JSON.stringify(marker) : '[]'};` : undefined,
    renderChunk(code, _chunk, _options, meta) {
      const placed = new RegExp(`(["'\`])${marker}\\1`, 'g');
      if (!placed.test(code)) return null;
      const files = signedInPrefetch(manifestOf(meta.chunks), signedInWay());
      return { code: code.replace(placed, JSON.stringify(files)), map: null };
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: webRoot,
  // The staff console is built apart (vite.staff.config.ts): this build fails if it ever holds its code.
  plugins: [react(), signedInCode(), appBoundary('customer', webRoot)],
  // The server-rendering build (src/entry-server.tsx, decision 016): one self-contained module for the
  // server to import, in dist/.ssr (never served: the server denies dot folders).
  ssr: { noExternal: true },
  // React's production build on the server too, whatever NODE_ENV the server runs with.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  build: isSsrBuild
    ? {
        outDir: 'dist/.ssr',
        emptyOutDir: true,
        sourcemap: false,
        copyPublicDir: false,
        // One file: a rebuild under a running server is loaded afresh, with nothing shared with the last.
        rolldownOptions: { output: { entryFileNames: '[name].js', codeSplitting: false } },
      }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        assetsDir: 'assets',
        // Read by the bundle report (bench/) and by anything that needs to know which chunks a route loads.
        manifest: true,
        sourcemap: false,
        rolldownOptions: {
          output: {
            entryFileNames: 'assets/[name]-[hash].js',
            chunkFileNames: 'assets/[name]-[hash].js',
            assetFileNames: 'assets/[name]-[hash][extname]',
            codeSplitting: { groups: chunkGroups },
          },
        },
      },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': apiServer,
      '/oauth2': apiServer,
      '/Registration': apiServer,
      '/app-settings.json': apiServer,
      '^/dev/': apiServer,
      '/healthz': apiServer,
    },
  },
  test: {
    name: 'web',
    root: webRoot,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // One jsdom window and module graph per worker, not per file: a fresh one cost about 3 s a file
    // (environment, setup and imports), most of the web tests' time. setup.ts puts back, before each
    // file, what a file could leave behind (address, analytics, router, timers, storage, caches).
    isolate: false,
    // Journeys through a form (typing, a modal's two steps) take a few seconds when the server and
    // browser tests share CI's two cores; 5 s was too tight for them there.
    testTimeout: 15_000,
  },
}));
