/**
 * Account activity benchmark (issue 26, decision 027): GET /api/v1/account-activity/{customerId} at 100
 * connections for a customer with 10,000 audit rows, on the embedded database and, when DATABASE_URL is
 * set, on that PostgreSQL server (a database of its own, `portal_bench_activity`, made afresh).
 *
 * Each database is prepared first (migrations and the demo seed, by the server itself), then given Joan Whitfield's
 * (C1000015) 10,000 rows over about two years, a third of them the SPA's own client rows and a share of
 * the rest events the list leaves out (as a busy customer's trail looks), among 100,000 rows of 2,000
 * other customers; then ANALYZE, and the query plans of the first page and of a page 5,000 rows deep
 * (EXPLAIN ANALYZE, printed for the decision record). The portal then starts on it, Joan signs in over
 * HTTP (one text code), and autocannon measures, after GET /healthz at the same connections (the
 * baseline) and the sign-in methods call (a comparable signed-in call of the portal service): the first
 * page, and the page 5,000 rows deep (a cursor). Reports req/s, p50 and p99; asserts
 * nothing, but exits 1 when a request did not answer 200.
 *
 * Run with `npm run bench:activity`. Options: `--duration S` (default 10), `--connections N` (default
 * 100), `--only pglite|postgres`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { activitySql } from '../apps/server/src/modules/portal/activity';
import { openDb, type Db } from '../apps/server/src/platform/db';
import { root, startPortal } from './support/portal';
import { accessToken, demoCustomers } from './support/sign-in';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};
const durationSeconds = Number(arg('duration') ?? 10);
const connections = Number(arg('connections') ?? 100);
const only = arg('only');
const ports = { pglite: 3393, postgres: 3394 } as const;
const joan = demoCustomers.joan;
const ROWS = 10_000;
const OTHER_ROWS = 100_000;
const DEEP = 5_000;

/** A customer's trail as it builds up: a third client rows, the rest the server's, some never listed. */
const rowsSql = (count: number, customer: string) => `
  INSERT INTO audit_event (occurred_at, source, event_id, customer_id, on_behalf_of, session_id,
    correlation_id, is_success, failure_reason, details)
  SELECT now() - interval '1 day' - i * interval '100 minutes',
    CASE WHEN i % 3 = 0 THEN 'client' ELSE 'server' END,
    CASE WHEN i % 3 = 0 THEN (ARRAY['Login', 'Page view', 'Document downloaded'])[1 + i % 3]
      ELSE (ARRAY['identity.mfa.sent', 'identity.signin', 'oidc.authorize', 'preferences.marketing.updated',
        'notification.read', 'identity.signin', 'contact.sent', 'identity.password.set'])[1 + (i / 3) % 8] END,
    ${customer}, NULL, 'bench-activity-' || (i / 6), md5(i::text), i % 29 <> 0,
    CASE WHEN i % 29 = 0 THEN 'WRONG_PASSWORD' END,
    jsonb_build_object('mfaSendMethod', 'sms', 'phoneNumber', '+44 XXXX XXX555', 'purpose', 'change',
      'marketingChannels', 'email,post', 'productType', 'PHL')
  FROM generate_series(1, ${count}) AS i`;

/** The server's own preparation of an embedded database (migrations, seeds), as at a first start. */
function prepareEmbedded(dir: string, dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'apps/server/src/server.ts', '--prepare-db', dir], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`--prepare-db exited ${code}`))));
  });
}

/** Joan's 10,000 rows and the others' 100,000, ANALYZE, the plans; answers the cursor 5,000 rows deep. */
async function fill(db: Db): Promise<string> {
  const held = await db.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM audit_event WHERE customer_id = $1',
    [joan.customerId],
  );
  const missing = ROWS - Number(held.rows[0]!.n);
  if (missing > 0) await db.query(rowsSql(missing, `'${joan.customerId}'`));
  await db.query(rowsSql(OTHER_ROWS, `'C2' || lpad((i % 2000)::text, 6, '0')`));
  await db.query('ANALYZE audit_event');
  const deep = await db.query<{ at: string; id: string }>(
    `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id::text AS id
     FROM audit_event WHERE customer_id = $1 AND source = 'server'
     ORDER BY occurred_at DESC, id DESC OFFSET ${DEEP} LIMIT 1`,
    [joan.customerId],
  );
  const { at, id } = deep.rows[0]!;
  const total = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM audit_event');
  console.log(
    `    ${Number(total.rows[0]!.n).toLocaleString('en-GB')} audit rows, ${ROWS.toLocaleString('en-GB')} of them Joan's`,
  );
  for (const [name, sql, params] of [
    ['first page', activitySql(false), [joan.customerId, 21]],
    [`page ${DEEP.toLocaleString('en-GB')} rows deep`, activitySql(true), [joan.customerId, 21, at, id]],
  ] as const) {
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, [
      ...params,
    ]);
    console.log(`    plan, ${name}:`);
    for (const row of plan.rows) {
      // The filter lists every event id shown: long, and the same in both plans.
      const line = row['QUERY PLAN'].replace(/(Filter: .{60}).*/, '$1…');
      console.log(`      ${line}`);
    }
  }
  return Buffer.from(`${at}|${id}`, 'utf8').toString('base64url');
}

interface Figures {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, name: string, urlPath: string, token?: string): Promise<Figures> {
  const warm = { url: `${url}${urlPath}`, connections, duration: 2, headers: auth(token) };
  await autocannon(warm);
  const result = await autocannon({ ...warm, duration: durationSeconds });
  return {
    name,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

async function measure(label: string, port: number, env: Record<string, string>, dataDir?: string) {
  const portal = await startPortal({ port, env, ...(dataDir ? { dataDir } : {}) });
  try {
    const token = await accessToken(portal.url, joan);
    return [
      await load(portal.url, 'GET /healthz (baseline)', '/healthz'),
      // A comparable signed-in call of the same service (token check, one customer's rows).
      await load(
        portal.url,
        'sign-in methods (reference)',
        `/api/v1/sign-in-methods/${joan.customerId}`,
        token,
      ),
      await load(portal.url, 'activity, first page', `/api/v1/account-activity/${joan.customerId}`, token),
      await load(
        portal.url,
        `activity, ${DEEP.toLocaleString('en-GB')} rows deep`,
        `/api/v1/account-activity/${joan.customerId}?cursor=${cursorOf.get(label)}`,
        token,
      ),
    ];
  } finally {
    await portal.stop(dataDir ? { keepData: true } : {});
  }
}

const cursorOf = new Map<string, string>();

function report(label: string, figures: Figures[]) {
  const base = figures[0]!.reqPerSec;
  console.log(`\n  ${label}, ${connections} connections, ${durationSeconds} s each`);
  console.log('    call                            req/s   p50 ms   p99 ms   vs healthz');
  for (const f of figures) {
    console.log(
      `    ${f.name.padEnd(30)} ${String(Math.round(f.reqPerSec)).padStart(7)} ${String(f.p50).padStart(8)} ${String(f.p99).padStart(8)}   ${(f.reqPerSec / base).toFixed(2).padStart(6)}`,
    );
  }
}

async function main() {
  let failed = false;
  const check = (figures: Figures[]) => {
    for (const f of figures) {
      if (f.non2xx > 0 || f.errors > 0) {
        console.error(`    ${f.name}: ${f.non2xx} answers not 2xx, ${f.errors} errors or timeouts`);
        failed = true;
      }
    }
  };
  if (only !== 'postgres') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-activity-'));
    try {
      console.log('bench:activity: embedded database (PGlite): preparing...');
      await prepareEmbedded(path.join(dataDir, 'pglite'), dataDir);
      const db = await openDb({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      cursorOf.set('pglite', await fill(db).finally(() => db.close()));
      const figures = await measure('pglite', ports.pglite, {}, dataDir);
      report('Embedded database (PGlite)', figures);
      check(figures);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const url = process.env['DATABASE_URL'];
  if (url && only !== 'pglite') {
    console.log('bench:activity: PostgreSQL (portal_bench_activity, made afresh): preparing...');
    const admin = await openDb({ kind: 'postgres', url, max: 1 });
    await admin.exec('DROP DATABASE IF EXISTS portal_bench_activity');
    await admin.exec('CREATE DATABASE portal_bench_activity');
    await admin.close();
    const target = new URL(url);
    target.pathname = '/portal_bench_activity';
    // The first start migrates and seeds it.
    await (await startPortal({ port: ports.postgres, env: { DATABASE_URL: target.href } })).stop();
    const db = await openDb({ kind: 'postgres', url: target.href, max: 2, statementTimeoutMs: 600_000 });
    cursorOf.set('postgres', await fill(db).finally(() => db.close()));
    const figures = await measure('postgres', ports.postgres, { DATABASE_URL: target.href });
    report(`PostgreSQL (${target.host})`, figures);
    check(figures);
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
