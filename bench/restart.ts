/**
 * Rolling restart benchmark (issue 24): two instances of the built server on one PostgreSQL database
 * behind HAProxy (Debian's package, on loopback, round robin, `option httpchk GET /readyz`: the settings
 * of bench/support/haproxy.cfg, which docs/operations.md gives for production), under 100 connections of
 * signed-in reads (profile and policies of three demo customers, bearer tokens). Each instance in turn
 * is sent SIGTERM, waited for until it exits, started again and waited for until HAProxy has it back;
 * then the answers are counted. Target: 0 answers other than 2xx, and no connection errors.
 *
 * Run with `npm run bench:restart` (builds the server bundle first). Needs /usr/sbin/haproxy: run as
 * root it installs Debian's package (as .ci/run installs Chromium), otherwise it says how. The database:
 * a fresh `portal_bench_restart` on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), dropped and created again at each run. Options:
 * `--connections N` (default 100), `--drain S` (SHUTDOWN_DRAIN_SECONDS, default 10), `--settle S`
 * (seconds of load before, between and after the restarts, default 5). Ports 3341 (HAProxy), 3342
 * and 3343 (the instances), 3344 (HAProxy's statistics). Exits 1 when any answer was not 2xx.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { answers, freshDatabase, root, sleep, spawnUntilReady, stopGroup } from './support/portal';
import { accessToken, demoCustomers } from './support/sign-in';

const haproxy = '/usr/sbin/haproxy';
const ports = { proxy: 3341, a: 3342, b: 3343, stats: 3344 } as const;
const proxyUrl = `http://127.0.0.1:${ports.proxy}`;
const statsUrl = `http://127.0.0.1:${ports.stats}/stats;csv`;

function numberOption(name: string, fallback: number, min = 1): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < min) {
    console.error(`bench:restart: --${name} needs a whole number of at least ${min}`);
    process.exit(2);
  }
  return value;
}

const connections = numberOption('connections', 100);
const drainSeconds = numberOption('drain', 10, 0);
const settleSeconds = numberOption('settle', 5, 0);

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
const say = (line: string) => console.log(`${elapsed()}  ${line}`);

/** Debian's HAProxy: installed when missing and we are root, as .ci/run installs Chromium. */
function ensureHaproxy(): void {
  if (existsSync(haproxy)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      "bench:restart needs Debian's HAProxy: sudo apt-get install -y haproxy (then run the bench again)",
    );
    process.exit(2);
  }
  console.log("Installing Debian's haproxy for the restart bench...");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'haproxy'], { stdio: 'inherit', env });
}

const bundle = path.join(root, 'apps', 'server', 'dist', 'server.mjs');

interface Instance {
  name: 'a' | 'b';
  port: number;
  child?: ChildProcess;
}

async function startInstance(instance: Instance, databaseUrl: string): Promise<number> {
  const url = `http://127.0.0.1:${instance.port}`;
  const { child, readyMs } = await spawnUntilReady(process.execPath, [bundle], {
    url,
    timeoutMs: 120_000,
    pollMs: 50,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(instance.port),
      // Both instances are reached through the proxy: one public address (sign-in, token issuer).
      PUBLIC_URL: proxyUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
      TRUST_PROXY: '127.0.0.1',
      WEB_DIST_DIR: path.join(os.tmpdir(), 'portal-bench-restart-no-web'),
    },
  });
  instance.child = child;
  return readyMs;
}

/** HAProxy's view of each server of the portal backend: UP, DOWN, UP 1/2 and so on. */
async function serverStates(): Promise<Record<string, string>> {
  const csv = await (await fetch(statsUrl)).text();
  const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const columns = header!.split(',');
  const at = (name: string) => columns.indexOf(name);
  const states: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[at('pxname')] === 'portal' && !['FRONTEND', 'BACKEND'].includes(cells[at('svname')]!)) {
      states[cells[at('svname')]!] = cells[at('status')]!;
    }
  }
  return states;
}

/** Answers per status class of each server, from HAProxy's statistics. */
async function serverAnswers(): Promise<Record<string, Record<string, number>>> {
  const csv = await (await fetch(statsUrl)).text();
  const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const columns = header!.split(',');
  const result: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const cells = row.split(',');
    const get = (name: string) => cells[columns.indexOf(name)]!;
    if (get('pxname') !== 'portal' || get('svname') === 'FRONTEND') continue;
    result[get('svname')] = Object.fromEntries(
      ['hrsp_2xx', 'hrsp_4xx', 'hrsp_5xx', 'eresp', 'econ', 'wretr', 'wredis'].map((c) => [
        c,
        Number(get(c) || 0),
      ]),
    );
  }
  return result;
}

async function waitForState(server: string, wanted: (state: string) => boolean, timeoutMs = 60_000) {
  const until = performance.now() + timeoutMs;
  for (;;) {
    // HAProxy may not be listening yet just after it starts.
    const state = (await serverStates().catch(() => ({}) as Record<string, string>))[server] ?? 'unknown';
    if (wanted(state)) return state;
    if (performance.now() > until) throw new Error(`HAProxy has ${server} ${state}`);
    await sleep(100);
  }
}

async function main(): Promise<void> {
  ensureHaproxy();
  for (const port of Object.values(ports)) {
    if (await answers(`http://127.0.0.1:${port}/healthz`)) throw new Error(`port ${port} is in use`);
  }
  console.log('Building the server bundle...');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the server bundle did not build');

  const databaseUrl = await freshDatabase('portal_bench_restart');
  const work = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-restart-'));
  const instances: Instance[] = [
    { name: 'a', port: ports.a },
    { name: 'b', port: ports.b },
  ];
  let proxy: ChildProcess | undefined;
  try {
    // One after the other: the first migrates and seeds the fresh database.
    for (const instance of instances) {
      const ms = await startInstance(instance, databaseUrl);
      say(`instance ${instance.name} ready on :${instance.port} in ${(ms / 1000).toFixed(1)} s`);
    }

    const config = readFileSync(path.join(root, 'bench', 'support', 'haproxy.cfg'), 'utf8')
      .replace('{{frontend}}', `127.0.0.1:${ports.proxy}`)
      .replace('{{stats}}', `127.0.0.1:${ports.stats}`)
      .replace('{{servers}}', instances.map((i) => `    server ${i.name} 127.0.0.1:${i.port}`).join('\n'));
    const configFile = path.join(work, 'haproxy.cfg');
    writeFileSync(configFile, config);
    execFileSync(haproxy, ['-c', '-q', '-f', configFile], { stdio: 'inherit' });
    let proxyOutput = '';
    proxy = spawn(haproxy, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    proxy.stdout!.on('data', (d: Buffer) => (proxyOutput += d.toString()));
    proxy.stderr!.on('data', (d: Buffer) => (proxyOutput += d.toString()));
    for (const instance of instances) {
      await waitForState(instance.name, (s) => s === 'UP', 20_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${proxyOutput}`);
      });
    }
    say(`HAProxy on :${ports.proxy} has both instances UP`);
    // Every change of HAProxy's view of a server, in the timeline.
    const seen: Record<string, string> = {};
    const monitor = setInterval(() => {
      serverStates().then(
        (states) => {
          for (const [server, state] of Object.entries(states)) {
            if (seen[server] !== undefined && seen[server] !== state) say(`  HAProxy: ${server} ${state}`);
            seen[server] = state;
          }
        },
        () => undefined,
      );
    }, 100);

    // Signed-in reads: three customers, signed in through the proxy the way the SPA does.
    const customers = [demoCustomers.margaret, demoCustomers.helen, demoCustomers.james];
    const signedIn = await Promise.all(
      customers.map(async (c) => ({ id: c.customerId, token: await accessToken(proxyUrl, c) })),
    );
    const reads = signedIn.flatMap(({ id, token }) =>
      [`/api/v1/profile/${id}`, `/api/v1/policy/${id}?page=1`].map((p) => ({
        method: 'GET' as const,
        path: p,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      })),
    );
    say(`signed in ${signedIn.length} customers; load: ${connections} connections of ${reads.length} reads`);

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let errors = 0;
    let finish: (result: autocannon.Result) => void = () => undefined;
    const finished = new Promise<autocannon.Result>((resolve) => (finish = resolve));
    const load = autocannon(
      {
        url: proxyUrl,
        connections,
        pipelining: 1,
        duration: 3600,
        requests: reads,
        timeout: 10,
      },
      (error, result) => {
        if (error) failures.push(`${elapsed()}  load: ${String(error)}`);
        finish(result);
      },
    );
    load.on('response', (_client, statusCode) => {
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      if ((statusCode < 200 || statusCode > 299) && failures.length < 20) {
        failures.push(`${elapsed()}  answer ${statusCode}`);
      }
    });
    load.on('reqError', (error: Error) => {
      errors += 1;
      if (failures.length < 20) failures.push(`${elapsed()}  error ${error.message}`);
    });

    await sleep(settleSeconds * 1000);
    for (const instance of instances) {
      const child = instance.child!;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      say(`instance ${instance.name}: SIGTERM`);
      process.kill(child.pid!, 'SIGTERM');
      const down = await waitForState(instance.name, (s) => s.startsWith('DOWN'));
      say(`instance ${instance.name}: HAProxy has it ${down}`);
      const code = await exited;
      say(`instance ${instance.name}: exited with code ${code}`);
      if (code !== 0) failures.push(`${elapsed()}  instance ${instance.name} exited with code ${code}`);
      const ms = await startInstance(instance, databaseUrl);
      say(`instance ${instance.name}: started again, ready in ${(ms / 1000).toFixed(1)} s`);
      await waitForState(instance.name, (s) => s === 'UP');
      say(`instance ${instance.name}: HAProxy has it UP`);
      await sleep(settleSeconds * 1000);
    }
    load.stop();
    const result = await finished;
    clearInterval(monitor);

    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    const ok = [...statuses].filter(([s]) => s >= 200 && s <= 299).reduce((a, [, n]) => a + n, 0);
    const non2xx = total - ok;
    console.log('');
    console.log(
      `Answers: ${total} in ${result.duration.toFixed(1)} s (${Math.round(total / result.duration)} a second)`,
    );
    console.log(`  2xx: ${ok}`);
    console.log(
      `  non-2xx: ${non2xx}${non2xx > 0 ? ` (${JSON.stringify(Object.fromEntries(statuses))})` : ''}`,
    );
    console.log(`  connection errors: ${errors}, timeouts: ${result.timeouts}`);
    console.log(
      `  latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
    console.log(`  per server (HAProxy): ${JSON.stringify(await serverAnswers())}`);
    if (failures.length > 0) console.log(['', 'First problems:', ...failures].join('\n'));
    process.exitCode = non2xx > 0 || errors > 0 || result.timeouts > 0 || failures.length > 0 ? 1 : 0;
  } finally {
    if (proxy && proxy.exitCode === null) proxy.kill('SIGTERM');
    for (const instance of instances) if (instance.child) await stopGroup(instance.child);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:restart failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
