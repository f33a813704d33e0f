import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { lockDataDir } from './platform/data-dir-lock';
import type { Db } from './platform/db';
import type * as platformDb from './platform/db';
import { startDrain } from './platform/shutdown';

/*
 * The portal's process: validate configuration, make sure the database exists and is migrated and
 * seeded, build the app, listen, and shut down gracefully. Heavy modules are imported only after the
 * configuration is known to be good, so a bad setting fails in a fraction of a second.
 */

/**
 * The file this process runs: the source under tsx, or the bundle `npm start` builds. The first-start
 * child runs the same file, so it is taken from argv rather than from import.meta.url.
 */
const serverFile = process.argv[1] ?? fileURLToPath(import.meta.url);
/** A second SIGINT/SIGTERM within this time is the same Ctrl+C reaching us twice (npm and our wrapper). */
const duplicateSignalMs = 1000;
/** How long in-flight requests get to finish, once the drain is over, before the process exits anyway. */
const shutdownTimeoutMs = 10_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** Where the database is, without any password in it. */
function describeDatabase(config: Config): string {
  if (config.database.kind === 'pglite') return `embedded PGlite in ${config.database.dataDir}`;
  const u = new URL(config.database.url);
  return `PostgreSQL at ${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

/** Migrations, then every module's idempotent seed (one instance at a time: db/prepare.ts). */
async function migrateAndSeed(db: Db, config: Config): Promise<void> {
  const { prepareDatabase } = await import('./db/prepare');
  await prepareDatabase(db, config);
}

/**
 * `--prepare-db <dir>`: creates a PGlite database in dir, migrates and seeds it, and exits. Run as a
 * child of the server at first start, so initdb's memory peak (about 700 MB) leaves with the child.
 */
async function prepareDb(dir: string): Promise<void> {
  const config = loadConfig();
  const { openDb } = await import('./platform/db');
  const db = await openDb({ kind: 'pglite', dataDir: dir });
  try {
    await migrateAndSeed(db, config);
  } finally {
    await db.close();
  }
}

/** Creates the embedded database in a child process; the data directory appears only when complete. */
async function createPgliteDataDir(dataDir: string): Promise<void> {
  const staging = `${dataDir}.creating-${process.pid}`;
  mkdirSync(path.dirname(dataDir), { recursive: true });
  // Left by a start that was interrupted; we hold the DATA_DIR lock, so none is in use.
  for (const entry of readdirSync(path.dirname(dataDir))) {
    if (entry.startsWith(`${path.basename(dataDir)}.creating-`)) {
      rmSync(path.join(path.dirname(dataDir), entry), { recursive: true, force: true });
    }
  }
  // Keep the loader flags (tsx) but not a debugger's, whose port the child could not share.
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--inspect'));
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, serverFile, '--prepare-db', staging], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: process.env,
    });
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`creating the embedded database failed (exit code ${code})`);
  }
  renameSync(staging, dataDir);
}

/**
 * The advice for a Node release older than 22 LTS, or one that is not an LTS release: the portal runs and
 * is tested on Node 20.19+, but its OpenID library supports only 22 LTS and later. Said once, in the
 * banner, instead of the library's own warning in every process (platform/oidc-library.ts).
 */
function nodeAdvice(): string | undefined {
  const lts = process.release.lts;
  if (lts && lts.charCodeAt(0) >= 'Jod'.charCodeAt(0)) return undefined;
  return `  Node.js ${process.version}: the portal runs on it, but Node.js 22 LTS or later is advised (its OpenID library supports only those).`;
}

async function banner(
  config: Config,
  startedMs: number,
  metricsAt: AddressInfo | undefined,
): Promise<string> {
  const { demoCustomers } = await import('./db/demo/customers');
  const url = config.publicUrl;
  const lines = [
    '',
    `  Customer portal: ${url}   (ready in ${(startedMs / 1000).toFixed(1)} s)`,
    `  Database: ${describeDatabase(config)}`,
  ];
  const advice = nodeAdvice();
  if (advice) lines.push(advice);
  if (config.redisUrl) {
    const r = new URL(config.redisUrl);
    lines.push(`  Shared state: Redis at ${r.hostname}:${r.port || '6379'}`);
  }
  if (metricsAt) lines.push(`  Metrics: http://${metricsAt.address}:${metricsAt.port}/metrics`);
  if (config.tracing.otlpEndpoint) {
    lines.push(`  Traces: OTLP to ${new URL(config.tracing.otlpEndpoint).origin}`);
  }
  if (config.seedDemoData && config.env !== 'production') {
    const name = (c: (typeof demoCustomers)[number]) => `${c.title} ${c.firstName} ${c.lastName}`;
    lines.push('', '  Sign in as a demo customer (email / password):');
    for (const c of demoCustomers.filter((c) => c.registered && c.email)) {
      lines.push(`    ${c.email} / ${c.registered!.password}`);
      lines.push(`      ${name(c)}: ${c.note.replace(/^registered;\s*/, '')}`);
    }
    lines.push('', '  Or register a demo customer who has no sign-in yet:');
    for (const c of demoCustomers.filter((c) => !c.registered)) {
      lines.push(`    ${name(c)}${c.email ? ` <${c.email}>` : ''}`);
      lines.push(`      ${c.note.replace(/^not yet registered[,:;]\s*/, '')}`);
    }
    if (config.devOutbox) {
      lines.push('', `  Codes and emailed links are not sent anywhere: read them at ${url}/dev/outbox`);
    }
  }
  lines.push('', '  Stop with Ctrl+C.', '');
  return lines.join('\n');
}

/** The configuration, or a one-line message naming the bad setting and exit 1. */
function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** Settings allowed in production that an operator should know they have chosen. */
function warnOfProductionSettings(config: Config): void {
  if (
    config.env === 'production' &&
    config.modules.has('integration') &&
    config.integration.clients.length === 0
  ) {
    console.warn(
      "WARNING: INTEGRATION_CLIENTS is not set: none of the insurer's systems can load customers, policies or documents (docs/integration.md).",
    );
  }
  if (config.env === 'production' && config.seedDemoData) {
    console.warn(
      'WARNING: SEED_DEMO_DATA=true in production: the demo customers, whose passwords the README publishes, can sign in. Only for a demonstration site.',
    );
  }
}

type Shutdown = (signal: NodeJS.Signals, drainMs?: number) => Promise<void>;

/** SIGINT and SIGTERM: while starting, a stop after the step in progress; once running, the shutdown. */
interface Signals {
  /** The signal that came while starting, if one did. */
  readonly stopSignal: NodeJS.Signals | undefined;
  /** From now on a signal calls `shutdown`. */
  handOverTo(shutdown: Shutdown): void;
}

/** A signal while starting stops the start after the step in progress, leaving nothing half-written. */
function listenForSignals(): Signals {
  let stopSignal: NodeJS.Signals | undefined;
  let stopAsked = 0;
  let running: Shutdown | undefined = undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (running) return void running(signal);
    if (stopSignal) {
      if (Date.now() - stopAsked < duplicateSignalMs) return;
      console.error(`${signal} again: stopping at once.`);
      process.exit(1);
    }
    stopSignal = signal;
    stopAsked = Date.now();
    console.error(`${signal}: stopping once the current start step has finished...`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get stopSignal() {
      return stopSignal;
    },
    handOverTo(shutdown) {
      running = shutdown;
    },
  };
}

/** Runs a step of the start, its time kept under `name`. */
type Timed = <T>(name: string, work: () => Promise<T>) => Promise<T>;

/** How long each part of the start took, in the 'ready' log line: a slow start says where it went. */
function startPhases(): { phases: Record<string, number>; timed: Timed } {
  const phases: Record<string, number> = { boot: Math.round(performance.now()) };
  const timed: Timed = async (name, work) => {
    const from = performance.now();
    try {
      return await work();
    } finally {
      phases[name] = Math.round(performance.now() - from);
    }
  };
  return { phases, timed };
}

/** The database module, loaded once the configuration is known to be good. */
type DbModule = typeof platformDb;

/** The open database, and the release of the DATA_DIR lock held while the embedded one is in use. */
interface Database {
  db: Db;
  releaseLock: () => void;
}

/**
 * Opens the database: the embedded one (created at first start, under the DATA_DIR lock) or PostgreSQL
 * (answering). A failure is the process's end: exit 0 when a signal was stopping it anyway, else 1.
 */
async function openDatabase(
  config: Config,
  { isPgliteDataDir, openDb }: DbModule,
  timed: Timed,
  signals: Signals,
): Promise<Database> {
  let releaseLock = () => {};
  try {
    if (config.database.kind === 'pglite') {
      const dataDir = config.database.dataDir ?? path.join(config.dataDir, 'pglite');
      releaseLock = lockDataDir(config.dataDir);
      if (!isPgliteDataDir(dataDir)) {
        console.log(`Creating the embedded database in ${dataDir} (first start only, a few seconds)...`);
        await timed('createDatabase', () => createPgliteDataDir(dataDir));
      }
      const db = await timed('openDatabase', () => openDb({ kind: 'pglite', dataDir }));
      return { db, releaseLock };
    }
    const db = await openDb(config.database);
    await db.query('SELECT 1');
    return { db, releaseLock };
  } catch (error) {
    releaseLock();
    if (signals.stopSignal) process.exit(0);
    fail(`Could not open the database (${describeDatabase(config)}): ${describeError(error)}`);
  }
}

type App = Awaited<ReturnType<typeof buildApp>>;
type Tracing = { stop(): Promise<void> };

/**
 * Migrates and seeds the database while the app's code loads, starts tracing if asked, and builds the
 * app. A signal stops the start between these steps (exit 0); a failure closes the database and throws.
 */
async function migrateAndBuild(
  config: Config,
  { db, releaseLock }: Database,
  { openDb }: DbModule,
  timed: Timed,
  signals: Signals,
): Promise<{ app: App; tracing: Tracing | undefined }> {
  // The app's code loads while migrations and seeds run. Loading it while PGlite opens was measured
  // slower: both need the main thread, and the opening then finishes later (bench/startup.ts).
  const appModule = import('./app');
  // Awaited later; a failure to load is reported then, not as an unhandled rejection now.
  appModule.catch(() => undefined);

  let app: App | undefined;
  let tracing: Tracing | undefined;
  const stopIfAsked = async () => {
    if (!signals.stopSignal) return;
    await app?.close();
    await db.close();
    releaseLock();
    process.exit(0);
  };

  try {
    await stopIfAsked();
    await timed('migrateAndSeed', async () => {
      // Migrations, and waiting for another instance's migration or seed lock, may take longer than a
      // request's statement timeout: they get their own small pool without one (one connection holds
      // the seed lock while the seeds use the others).
      const setupDb =
        config.database.kind === 'postgres'
          ? await openDb({ ...config.database, max: 3, statementTimeoutMs: 0 })
          : db;
      try {
        await migrateAndSeed(setupDb, config);
      } finally {
        if (setupDb !== db) await setupDb.close();
      }
    });
    await stopIfAsked();
    // Before the app is built: its request hooks are installed only when tracing is on.
    if (config.tracing.otlpEndpoint) {
      const { startTracing } = await import('./platform/tracing');
      tracing = await timed('startTracing', () => startTracing());
    }
    const { buildApp } = await timed('loadApp', () => appModule);
    const built = (app = await timed('buildApp', () => buildApp({ config, db })));
    await stopIfAsked();
    return { app: built, tracing };
  } catch (error) {
    await db.close().catch(() => undefined);
    releaseLock();
    throw error;
  }
}

/**
 * A graceful stop: drain (not ready, still serving, `Connection: close` on every answer) for
 * SHUTDOWN_DRAIN_SECONDS so the load balancer takes the instance out, then close (stop listening,
 * close idle keep-alive sockets, finish the requests in flight, stop the workers after their current
 * message, write the audit events accepted), close the database and exit 0. Another signal (more
 * than a second after the previous one) ends the drain early; one during the close stops at once.
 */
function gracefulShutdown(
  config: Config,
  built: App,
  { db, releaseLock }: Database,
  tracing: Tracing | undefined,
): Shutdown {
  let lastSignalAt = 0;
  let endDrain: (() => void) | undefined;
  return async (signal, drainMs = config.shutdownDrainMs) => {
    const now = Date.now();
    if (lastSignalAt > 0) {
      // The same Ctrl+C reaching us twice: each press is acted on once.
      if (now - lastSignalAt < duplicateSignalMs) return;
      lastSignalAt = now;
      if (endDrain) {
        built.log.info({ signal }, 'shutting down: drain ended early');
        return endDrain();
      }
      console.error(`${signal} again: stopping at once.`);
      releaseLock();
      process.exit(1);
    }
    lastSignalAt = now;
    startDrain(built);
    if (drainMs > 0) {
      built.log.info({ signal, drainMs }, 'shutting down: not ready, serving until the drain ends');
      if (process.stdout.isTTY) {
        console.error(`${signal}: stopping in ${drainMs / 1000} s (draining); again to stop sooner.`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        endDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      endDrain = undefined;
    }
    built.log.info({ signal }, 'shutting down: finishing requests in flight');
    setTimeout(() => {
      console.error('Requests still running after 10 s; stopping anyway.');
      releaseLock();
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    try {
      await built.close();
      await db.close();
      built.log.info('stopped: requests finished, workers stopped, database closed');
      // The spans not yet sent, within the shutdown's time.
      await tracing?.stop().catch(() => undefined);
      releaseLock();
      process.exit(0);
    } catch (error) {
      console.error(`Shutdown failed: ${describeError(error)}`);
      releaseLock();
      process.exit(1);
    }
  };
}

/** Listens on HOST:PORT; if it cannot, closes what is open and exits 1 saying why. */
async function listen(
  config: Config,
  built: App,
  { db, releaseLock }: Database,
  timed: Timed,
): Promise<void> {
  try {
    await timed('listen', () => built.listen({ host: config.host, port: config.port }));
  } catch (error) {
    await built.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    releaseLock();
    const code = (error as NodeJS.ErrnoException).code;
    fail(
      code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use. Stop the other process or set PORT.`
        : `Could not listen on ${config.host}:${config.port}: ${describeError(error)}`,
    );
  }
}

/** The 'ready' log line, with how long the start took and where, then the banner. */
async function announceReady(config: Config, built: App, phases: Record<string, number>): Promise<void> {
  const startedMs = performance.now();
  const metricsAt = built.metricsListener?.address();
  built.log.info(
    {
      url: config.publicUrl,
      database: config.database.kind,
      ...(metricsAt ? { metrics: `http://${metricsAt.address}:${metricsAt.port}/metrics` } : {}),
      tracing: config.tracing.otlpEndpoint ? 'otlp' : 'off',
      startMs: Math.round(startedMs),
      phases,
      rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    },
    'ready',
  );
  console.log(await banner(config, startedMs, metricsAt));
}

async function main(): Promise<void> {
  const config = readConfig();
  warnOfProductionSettings(config);
  const signals = listenForSignals();

  const dbModule = await import('./platform/db');
  const { phases, timed } = startPhases();
  const database = await openDatabase(config, dbModule, timed, signals);
  const { app, tracing } = await migrateAndBuild(config, database, dbModule, timed, signals);
  const shutdown = gracefulShutdown(config, app, database, tracing);
  await listen(config, app, database, timed);

  // From here a signal means a graceful shutdown; one that came during the start is acted on now, with
  // no drain: no load balancer has seen this instance ready.
  signals.handOverTo(shutdown);
  if (signals.stopSignal) return shutdown(signals.stopSignal, 0);
  await announceReady(config, app, phases);
}

const prepareIndex = process.argv.indexOf('--prepare-db');
if (prepareIndex !== -1) {
  const dir = process.argv[prepareIndex + 1];
  if (!dir) fail('--prepare-db needs a directory');
  prepareDb(dir).then(
    () => process.exit(0),
    (error: unknown) => fail(`Preparing the database failed: ${describeError(error)}`),
  );
} else {
  main().catch((error: unknown) => {
    console.error(`The server could not start: ${describeError(error)}`);
    if (error instanceof Error && error.stack && process.env.NODE_ENV !== 'production') {
      console.error(error.stack);
    }
    process.exit(1);
  });
}
