import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';

/** The real process, as `npm start` runs it (here from source through tsx). */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Run {
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitForReady(base: string, run: Run, timeoutMs = 60_000): Promise<void> {
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

describe('server process', () => {
  it('stops at once with a one-line error naming a bad variable', async () => {
    const run = startServer({ PORT: 'not-a-port', DATA_DIR: path.join(os.tmpdir(), 'portal-never-used') });
    expect(await run.exited).toBe(1);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT: /);
    expect(run.stdout()).toBe('');
  });

  describe('on a prepared embedded database', () => {
    let dataDir: string;
    let base: string;
    let run: Run;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-server-test-'));
      // A data directory made from the test template: what a second `npm start` finds.
      const template = new Blob([await readFile(inject('pgliteTemplate'))]);
      const pg = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: template });
      await pg.close();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      run = startServer({
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: path.join(dataDir, 'no-dist'),
      });
      await waitForReady(base, run);
    }, 120_000);
    afterAll(async () => {
      if (run?.child.exitCode === null) run.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    it('prints where it is, the database and the demo sign-in details', () => {
      const out = run.stdout();
      expect(out).toMatch(/Customer portal: http:\/\/localhost:\d+/);
      expect(out).toContain(`Database: embedded PGlite in ${path.join(dataDir, 'pglite')}`);
      expect(out).toContain('margaret.thompson@example.co.uk / BluebellCottage1952');
      expect(out).toContain('/dev/outbox');
      // The OpenID library's Node warning is not printed; on Node 20 the banner advises once instead.
      const everything = out + run.stderr();
      expect(everything).not.toContain('oidc-provider WARNING');
      const advice = everything.split('\n').filter((l) => l.includes('Node.js 22 LTS or later is advised'));
      expect(advice).toHaveLength(process.release.lts && process.release.lts >= 'Jod' ? 0 : 1);
    });

    it('logs JSON lines with the correlation id, and no secrets', async () => {
      const res = await fetch(`${base}/healthz?token=secret-in-query`, {
        headers: {
          'X-CorrelationId': 'server-test-1',
          'X-SessionId': 'session-test-1',
          Authorization: 'Bearer secret-in-header',
        },
      });
      expect(res.headers.get('x-correlationid')).toBe('server-test-1');
      await new Promise((r) => setTimeout(r, 200));
      const logs = run
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const mine = logs.filter((l) => l['correlationId'] === 'server-test-1');
      expect(mine.length).toBeGreaterThanOrEqual(2);
      for (const line of mine) expect(line['sessionId']).toBe('session-test-1');
      const text = run.stdout();
      expect(text).not.toContain('secret-in-query');
      expect(text).not.toContain('secret-in-header');
    });

    it('refuses a second server on the same data directory', async () => {
      const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toMatch(/Another portal process \(pid \d+\) is using/);
    }, 60_000);

    it('shuts down gracefully on SIGTERM: exit 0, lock released', async () => {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    });
  });
});
