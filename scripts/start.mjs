/* global process, console, setInterval, clearInterval */
/**
 * `npm start`: builds what is out of date, then runs the server.
 * - The web app is rebuilt only when apps/web/dist is missing, older than its sources or built with
 *   other packages.
 * - The server bundle (see build-server.mjs) likewise, against the server's sources.
 * - The server bundle then runs in this process: its signal handling and exit code are ours.
 * A start with nothing to build costs a few milliseconds here (see bench/startup.ts).
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer, serverBundle, serverBundleIsStale } from './build-server.mjs';
import { lockfileChangedSince, newestMtime } from './mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = path.join(root, 'apps', 'web', 'dist', 'index.html');
// The staff console's build, written after the customers' app's (decision 038).
const consoleIndex = path.join(root, 'apps', 'web', 'dist', 'staff.html');
const webSources = [
  path.join(root, 'apps', 'web', 'src'),
  path.join(root, 'apps', 'web', 'public'),
  path.join(root, 'apps', 'web', 'index.html'),
  path.join(root, 'apps', 'web', 'staff.html'),
  path.join(root, 'apps', 'web', 'vite.config.ts'),
  path.join(root, 'apps', 'web', 'vite.staff.config.ts'),
  path.join(root, 'apps', 'web', 'package.json'),
  path.join(root, 'packages', 'contracts', 'src'),
];
// An install that changed the packages changes what the build contains (stamp by precompress.mjs).
const webLockfileStamp = path.join(root, 'apps', 'web', 'dist', 'packages.sha256');

async function webIsStale() {
  let built;
  try {
    built = Math.min((await stat(webIndex)).mtimeMs, (await stat(consoleIndex)).mtimeMs);
  } catch {
    return true;
  }
  if ((await newestMtime(webSources, (file) => !/\.test\.tsx?$/.test(file))) > built) return true;
  return lockfileChangedSince(webLockfileStamp, root);
}

/** Runs an npm script of the root package with the npm that started us, output to our terminal. */
function npmRun(script) {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli
    ? [process.execPath, [npmCli, 'run', script]]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', script]];
  return new Promise((resolve, reject) => {
    // The build is always a production build: Vite keeps a NODE_ENV it finds, and the server's
    // NODE_ENV=development (or test) would otherwise give React's development build, twice the size.
    const child = spawn(command, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const [webStale, serverStale] = await Promise.all([webIsStale(), serverBundleIsStale()]);
if (webStale) {
  console.log('Building the web app (its sources changed or it was never built)...');
  const code = await npmRun('build:web');
  if (code !== 0) {
    console.error('The web app did not build; see the errors above.');
    process.exit(code);
  }
}
if (serverStale) await buildServer();

// The server runs in this process (a second Node process would cost its start-up time and memory).
// It handles SIGINT/SIGTERM itself; argv[1] names the bundle, which it re-runs for first-start work.
process.argv[1] = serverBundle;

// npm passes SIGTERM only to the shell it started, which dies without passing it on; so when our
// parent goes away (a service manager stopping `npm start`), stop the server as if it had been asked.
const parent = process.ppid;
const orphanCheck = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanCheck);
  process.kill(process.pid, 'SIGTERM');
}, 500).unref();

await import(pathToFileURL(serverBundle).href);
