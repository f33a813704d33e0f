/**
 * The real server process, as `npm start` runs it (here from source through tsx), for the tests that
 * watch it start and stop: its output, its exit, and a data directory made from the test template.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export function startServer(env: Record<string, string>): Run {
  let out = '';
  let err = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function waitForReady(base: string, run: Run, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (run.child.exitCode !== null) throw new Error(`server exited: ${run.stderr()}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready in time: ${run.stderr()}`);
}

/** A new DATA_DIR holding a copy of the test template: what a second `npm start` finds. */
export async function preparedDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-server-test-'));
  const template = new Blob([await readFile(inject('pgliteTemplate'))]);
  const pg = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: template });
  await pg.close();
  return dataDir;
}

/** The JSON log lines the server wrote to stdout. */
export function logLines(run: Run): Array<Record<string, unknown>> {
  return run
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
