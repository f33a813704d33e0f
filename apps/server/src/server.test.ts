import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  logLines,
  preparedDataDir,
  startServer,
  waitForReady,
  type Run,
} from '../test/server-process';

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
      dataDir = await preparedDataDir();
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
      const logs = logLines(run);
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
