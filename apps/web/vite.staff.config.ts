import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { appBoundary } from '../../scripts/app-boundary.mjs';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The staff console's build (issue 41, decision 038): staff.html and src/staff/, built apart from the
 * customers' app (vite.config.ts) into the same dist, after it: its HTML as dist/staff.html (served by the
 * server at /staff/ and below), its files beside the customers' in dist/assets with a `staff-` prefix
 * (long-cached as theirs), its manifest as dist/.vite/staff-manifest.json (the bundle report reads it). No
 * chunk is shared with the customers' build, so no customer page can load staff code, and this build
 * fails if it ever holds the customers' own code (scripts/app-boundary.mjs).
 *
 * The first screen (find a customer) comes in the entry with React and the schema library; the customer
 * record and the audit trail are loaded when opened.
 */
export default defineConfig({
  root: webRoot,
  plugins: [react(), appBoundary('staff', webRoot)],
  build: {
    outDir: 'dist',
    // The customers' build has emptied dist and written its files; this one adds its own.
    emptyOutDir: false,
    copyPublicDir: false,
    assetsDir: 'assets',
    manifest: '.vite/staff-manifest.json',
    sourcemap: false,
    rolldownOptions: {
      input: { staff: fileURLToPath(new URL('staff.html', import.meta.url)) },
      output: {
        entryFileNames: 'assets/staff-[name]-[hash].js',
        chunkFileNames: 'assets/staff-[name]-[hash].js',
        assetFileNames: 'assets/staff-[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            // The libraries, long-cached apart from the console's own code.
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 2,
            },
            { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
});
