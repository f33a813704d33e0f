/* global process, console */
/**
 * Bundles the server's TypeScript and the packages it uses into apps/server/dist/server.mjs (plus
 * chunks/), for `npm start`. Node's ES module loader pays for every file it resolves and loads; the
 * server's dependency tree is hundreds of files, which cost about half a second at every start. One
 * bundle costs a fraction of that (see bench/startup.ts and docs/decisions/009-start-up-time.md).
 *
 * A few packages stay in node_modules, loaded at run time (`runtimeExternal`): those that find files
 * beside their own code (PGlite's WebAssembly and data files, argon2's native addon, pino's worker
 * threads, pdfkit's font metrics) and those loaded only when configured (ioredis, nodemailer). Each of our files keeps its own
 * import.meta.url, so code that finds files beside itself (migrations, content) reads them from the
 * source tree as in development.
 *
 * Usage: node scripts/build-server.mjs            (always builds)
 *        import { serverBundleIsStale, buildServer } from './build-server.mjs'
 */
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lockfileChangedSince, newestMtime, writeLockfileStamp } from './mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverEntry = path.join(root, 'apps', 'server', 'src', 'server.ts');
export const serverBundle = path.join(root, 'apps', 'server', 'dist', 'server.mjs');
const sources = [
  path.join(root, 'apps', 'server', 'src'),
  path.join(root, 'packages', 'contracts', 'src'),
  path.join(root, 'apps', 'server', 'package.json'),
  path.join(root, 'scripts', 'build-server.mjs'),
];
// The bundle holds the packages too: an install that changed them makes it stale.
const lockfileStamp = path.join(path.dirname(serverBundle), 'packages.sha256');

/** Packages loaded from node_modules at run time rather than bundled (see the comment at the top). */
const runtimeExternal = [
  '@electric-sql/pglite',
  'argon2',
  'pino',
  'thread-stream',
  'pg-native',
  'ioredis',
  'nodemailer',
  'pdfkit',
];
const isRuntimeExternal = (specifier) =>
  runtimeExternal.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/** True when the bundle is missing, older than a server or contracts source file, or built with other packages. */
export async function serverBundleIsStale() {
  let built;
  try {
    built = (await stat(serverBundle)).mtimeMs;
  } catch {
    return true;
  }
  if ((await newestMtime(sources, (file) => !/\.test\.tsx?$/.test(file))) > built) return true;
  return lockfileChangedSince(lockfileStamp, root);
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
    // Written for debugging (NODE_OPTIONS=--enable-source-maps maps stack traces to the sources); not
    // loaded by default, as parsing them costs start-up time and memory.
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS packages in an ES module bundle: their require() of Node built-ins and of the runtime
    // externals goes through a real require.
    banner: {
      js: "import { createRequire as __portalCreateRequire } from 'node:module'; const require = __portalCreateRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'portal-server',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            isRuntimeExternal(args.path) ? { path: args.path, external: true } : undefined,
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
  await writeLockfileStamp(lockfileStamp, root);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  console.log(`Server bundle: ${path.relative(root, serverBundle)} (${Date.now() - started} ms)`);
}
