/**
 * "Sign out every other session" across instances (issue 26, decision 025): two instances of the built
 * server on one PostgreSQL database (and Redis, as in production), a customer signed in twice. On each
 * try the other sign-in's access token is read on instance B until B has seen it as good (its one-second
 * grant check is warm), then, while a client keeps calling B with that token one request after another,
 * "sign out every other session" is sent to instance A. Measured: from A's answer (and from sending the
 * request) to the first answer 401 on B. The grant check's cache lets a live answer stand for one
 * second, and a session in constant use has just been checked again when the sign-out lands, so the
 * figure is close to that second (less for a session used now and then); the median of the tries is
 * reported.
 *
 * Run with `npm run bench:sign-out` (builds the server bundle first). The database: a fresh
 * `portal_bench_sessions` on the server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * dropped and created again at each run; Redis at REDIS_URL (default redis://127.0.0.1:6379) under a key
 * prefix of this run. Options: `--tries N` (default 7; each try signs Fiona in once more, and an account
 * gets 10 codes an hour, so at most 9). Ports 3351 (A) and 3352 (B).
 */
import { randomUUID } from 'node:crypto';
import { spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import {
  answers,
  freshDatabase,
  median,
  percentile,
  root,
  spawnUntilReady,
  stopGroup,
} from './support/portal';
import { accessToken, type DemoCustomer } from './support/sign-in';

/** The demo customer of "where you're signed in" (README, "Demo sign-in"). */
const fiona: DemoCustomer = {
  customerId: 'C1000012',
  email: 'fiona.maclean@example.co.uk',
  password: 'RowanLodgeOban58',
  phone: '07700900888',
  factor: 'sms',
};

const ports = { a: 3351, b: 3352 } as const;
const urlOf = (port: number) => `http://127.0.0.1:${port}`;

function triesOption(): number {
  const at = process.argv.indexOf('--tries');
  if (at === -1) return 7;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1 || value > 9) {
    console.error('bench:sign-out: --tries needs a whole number from 1 to 9');
    process.exit(2);
  }
  return value;
}

async function startInstance(port: number, databaseUrl: string, redisPrefix: string): Promise<ChildProcess> {
  const { child } = await spawnUntilReady(
    process.execPath,
    [path.join(root, 'apps', 'server', 'dist', 'server.mjs')],
    {
      url: urlOf(port),
      timeoutMs: 180_000,
      pollMs: 50,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        // One public address for both, as behind a load balancer: the same token issuer.
        PUBLIC_URL: urlOf(ports.a),
        DATABASE_URL: databaseUrl,
        REDIS_URL: process.env['REDIS_URL'] || 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: redisPrefix,
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: path.join(os.tmpdir(), 'portal-bench-sessions-no-web'),
      },
    },
  );
  return child;
}

const sessionsPath = `/api/v1/sign-in-sessions/${fiona.customerId}`;
const read = (port: number, token: string) =>
  fetch(`${urlOf(port)}${sessionsPath}`, { headers: { authorization: `Bearer ${token}` } }).then(
    async (r) => {
      await r.arrayBuffer();
      return r.status;
    },
  );

async function main(): Promise<void> {
  const tries = triesOption();
  for (const port of Object.values(ports)) {
    if (await answers(`${urlOf(port)}/healthz`)) throw new Error(`port ${port} is in use`);
  }
  console.log('Building the server bundle...');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the server bundle did not build');

  const databaseUrl = await freshDatabase('portal_bench_sessions');
  const redisPrefix = `bench-sessions-${randomUUID()}:`;
  const children: ChildProcess[] = [];
  try {
    // One after the other: the first migrates and seeds the fresh database.
    children.push(await startInstance(ports.a, databaseUrl, redisPrefix));
    children.push(await startInstance(ports.b, databaseUrl, redisPrefix));
    const keeper = await accessToken(urlOf(ports.a), fiona);

    const fromAnswer: number[] = [];
    const fromRequest: number[] = [];
    for (let i = 0; i < tries; i += 1) {
      const other = await accessToken(urlOf(ports.a), fiona);
      // B has seen the other sign-in's token as good: its grant check is warm.
      if ((await read(ports.b, other)) !== 200) throw new Error('instance B refused a live token');
      let stop = false;
      let refusedAt: number | undefined;
      let statuses = '';
      const poller = (async () => {
        while (!stop) {
          const status = await read(ports.b, other);
          if (status === 401) {
            refusedAt = performance.now();
            return;
          }
          if (status !== 200) statuses += ` ${status}`;
        }
      })();
      const sent = performance.now();
      const res = await fetch(`${urlOf(ports.a)}${sessionsPath}/sign-out-others`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keeper}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const answered = performance.now();
      const body = (await res.json()) as { ended?: number };
      if (res.status !== 200 || body.ended !== 1) {
        throw new Error(`sign-out-others answered ${res.status} ${JSON.stringify(body)}`);
      }
      const timeout = setTimeout(() => (stop = true), 5000);
      await poller;
      clearTimeout(timeout);
      if (refusedAt === undefined) throw new Error(`B still took the token 5 s later${statuses}`);
      fromAnswer.push(refusedAt - answered);
      fromRequest.push(refusedAt - sent);
      console.log(
        `try ${i + 1}: sign-out answered by A in ${(answered - sent).toFixed(1)} ms; first 401 on B ` +
          `${(refusedAt - answered).toFixed(0)} ms after that (${(refusedAt - sent).toFixed(0)} ms after sending)`,
      );
    }
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    console.log('');
    console.log(`Sign out every other session on A -> first refused request on B (${tries} tries):`);
    console.log(
      `  from A's answer: median ${ms(median(fromAnswer))}, max ${ms(percentile(fromAnswer, 100))}`,
    );
    console.log(
      `  from sending it: median ${ms(median(fromRequest))}, max ${ms(percentile(fromRequest, 100))}`,
    );
  } finally {
    for (const child of children) await stopGroup(child);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
