/**
 * Shared by the benchmarks: run the built portal as a user would (`node scripts/start.mjs`, which builds
 * whatever is stale first) on its own port and data directory, so a running portal is not disturbed,
 * and stop its whole process group afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const median = (values: number[]) => percentile(values, 50);

/** Nearest-rank percentile of a list of figures (0 for an empty list). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  if (p === 50 && sorted.length % 2 === 0) {
    const mid = sorted.length / 2;
    return (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** True when the URL answers 2xx within a second. */
export async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** The resident memory of a process now and at its peak, in MB (Linux only; undefined elsewhere). */
export function memoryOf(pid: number): { nowMb: number; peakMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const now = kb('VmRSS');
    const peak = kb('VmHWM');
    if (!Number.isFinite(now) || !Number.isFinite(peak)) return undefined;
    return { nowMb: Math.round(now / 1024), peakMb: Math.round(peak / 1024) };
  } catch {
    return undefined;
  }
}

/** Stops a detached child and everything it started (npm, the start script, the server). */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
}

export interface Portal {
  url: string;
  /** The server's process (scripts/start.mjs runs the server in its own process). */
  pid: number;
  /** Everything the server printed so far. */
  output(): string;
  /** Its data directory (the embedded database is in pglite/ inside). */
  dataDir: string;
  /**
   * Stops the server (SIGTERM: a graceful shutdown, then SIGKILL after 15 s) and removes its data
   * directory, unless keepData (the caller then removes it).
   */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface PortalOptions {
  port: number;
  /**
   * Extra environment. DATABASE_URL and REDIS_URL are never taken from this process: a benchmark names
   * the database it measures, the embedded one unless given here.
   */
  env?: Record<string, string>;
  /** A data directory made beforehand (its embedded database prepared); a new one when not given. */
  dataDir?: string;
}

export interface Started {
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** From spawning to the first answer from /readyz. */
  readyMs: number;
}

/**
 * Spawns a command that starts the portal (detached: its own process group, stopped with stopGroup)
 * and waits until `${url}/readyz` answers. A process that exits or never gets ready is stopped, and the
 * error carries what it printed.
 */
export async function spawnUntilReady(
  command: string,
  args: string[],
  { url, env, timeoutMs, pollMs }: { url: string; env: NodeJS.ProcessEnv; timeoutMs: number; pollMs: number },
): Promise<Started> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${output}`);
      if (await answers(`${url}/readyz`)) break;
      if (performance.now() - started > timeoutMs) {
        throw new Error(`not ready after ${timeoutMs / 1000} s:\n${output}`);
      }
      await sleep(pollMs);
    }
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
  return { child, output: () => output, readyMs: performance.now() - started };
}

/**
 * Starts the portal on a new embedded data directory (or on DATABASE_URL when given in `env`), waits
 * for /readyz, and returns how to reach and stop it. The outbox stays on (development mode) so a
 * benchmark can read sign-in codes the way the browser journeys do.
 */
export async function startPortal({ port, env = {}, dataDir: given }: PortalOptions): Promise<Portal> {
  const url = `http://127.0.0.1:${port}`;
  if (await answers(`${url}/healthz`)) throw new Error(`port ${port} is already in use`);
  const dataDir = given ?? mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  let started: Started;
  try {
    started = await spawnUntilReady(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
      url,
      timeoutMs: 180_000,
      pollMs: 50,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        // The address a browser is sent to must be the one the portal believes it has (sign-in, CORS).
        PUBLIC_URL: url,
        DATABASE_URL: '',
        REDIS_URL: '',
        ...env,
      },
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { child, output } = started;
  return {
    url,
    pid: child.pid!,
    output,
    dataDir,
    async stop({ keepData = false } = {}) {
      await stopGroup(child);
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database `name` on the server of DATABASE_URL (dropped first if a run left it); its URL. */
export async function freshDatabase(name: string): Promise<string> {
  const server = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}
