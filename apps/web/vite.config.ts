import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.PORTAL_DEV_API ?? 'http://localhost:3000';

/**
 * How the build groups modules into files (decision 016). A slow connection pays for every request, so the
 * first page of a visit should need few files: the libraries every page runs (React, React Router)
 * come in one long-cached file, everything the app's start statically needs in the entry, and the code
 * the public pages' forms share in one more (what the sign-in form uses). The parts only the other forms
 * use (codes, dates, choices, the modal) and the rest stay split by page and block, loaded when used.
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
  {
    name: 'forms',
    test: /(apps[\\/]web[\\/]src[\\/](components[\\/]ui[\\/](?!(modal|code-input|checkbox|checkbox-group|radio-group|choice-item|resend-button|use-countdown|fieldset|date-of-birth-field|summary-row|password-requirements)\.)|lib[\\/](forms|validation|feature-flags)[\\/]|features[\\/]auth[\\/](components|utils)[\\/]|content[\\/](content-blocks|rich-text|call-to-action|content-page-body)\.tsx))|contracts[\\/]src[\\/](field-rules|content[\\/]rich-text-rules)\.ts/,
    minShareCount: 2,
    includeDependenciesRecursively: false,
    priority: 1,
  },
];

export default defineConfig(({ isSsrBuild }) => ({
  root: webRoot,
  plugins: [react()],
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
