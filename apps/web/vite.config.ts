import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.PORTAL_DEV_API ?? 'http://localhost:3000';

/** Node modules that get a long-lived chunk of their own (they change far less often than our code). */
const vendorGroups = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'vendor-router', test: /node_modules[\\/]react-router[\\/]/ },
  { name: 'vendor-query', test: /node_modules[\\/]@tanstack[\\/]/ },
  { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/ },
  { name: 'vendor-oidc', test: /node_modules[\\/](oidc-client-ts|jwt-decode)[\\/]/ },
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
        rolldownOptions: { output: { entryFileNames: '[name].js', inlineDynamicImports: true } },
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
            codeSplitting: { groups: vendorGroups },
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
    // Journeys through a form (typing, a modal's two steps) take a few seconds when the server and
    // browser tests share CI's two cores; 5 s was too tight for them there.
    testTimeout: 15_000,
  },
}));
