/* global process, console */
/**
 * Bundles the server's TypeScript into apps/server/dist/server.mjs (plus chunks/), for `npm start`.
 * Loading the sources through the tsx loader costs seconds at every start (each import crosses to the
 * loader thread); the bundle starts in well under one. Packages stay external (node_modules), except
 * our own workspace packages, which are TypeScript. Each file keeps its own import.meta.url, so code
 * that finds files beside itself (migrations, content) reads them from the source tree as in development.
 *
 * Usage: node scripts/build-server.mjs            (always builds)
 *        import { serverBundleIsStale, buildServer } from './build-server.mjs'
 */
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newestMtime } from './mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverEntry = path.join(root, 'apps', 'server', 'src', 'server.ts');
export const serverBundle = path.join(root, 'apps', 'server', 'dist', 'server.mjs');
const sources = [
  path.join(root, 'apps', 'server', 'src'),
  path.join(root, 'packages', 'contracts', 'src'),
  path.join(root, 'apps', 'server', 'package.json'),
  path.join(root, 'scripts', 'build-server.mjs'),
];

/** True when the bundle is missing or older than any server or contracts source file. */
export async function serverBundleIsStale() {
  let built;
  try {
    built = (await stat(serverBundle)).mtimeMs;
  } catch {
    return true;
  }
  return (await newestMtime(sources, (file) => !/\.test\.tsx?$/.test(file))) > built;
}

export async function buildServer() {
  const { build } = await import('esbuild');
  // Chunk names carry a hash; drop the previous build's so they do not pile up.
  await rm(path.join(path.dirname(serverBundle), 'chunks'), { recursive: true, force: true });
  await build({
    entryPoints: { server: serverEntry },
    outdir: path.dirname(serverBundle),
    outExtension: { '.js': '.mjs' },
    // Split at dynamic imports, so the server can open the database while the app's packages load.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [
      {
        name: 'portal-server',
        setup(b) {
          // Packages load from node_modules at run time; only our TypeScript workspaces are bundled.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
          );
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            const url = pathToFileURL(args.path).href;
            const source = await readFile(args.path, 'utf8');
            return {
              contents: source
                .replaceAll('import.meta.url', JSON.stringify(url))
                .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
                .replaceAll('import.meta.filename', JSON.stringify(args.path)),
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  console.log(`Server bundle: ${path.relative(root, serverBundle)} (${Date.now() - started} ms)`);
}
