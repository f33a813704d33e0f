/**
 * API load benchmark: throughput and latency of the built server under concurrent load, endpoint by
 * endpoint (health, content, the SPA page and a hashed asset, the OpenID discovery document and keys,
 * the audit-event write path and the 400 error path), on the embedded database and, when DATABASE_URL
 * is set, on that PostgreSQL server as well. Each figure is also given relative to GET /healthz on the
 * same server, so a run on a busy or slow machine still says which endpoints cost what.
 *
 * Run with `npm run bench:api`. Options: `--duration S` (seconds per scenario, default 10),
 * `--connections N` (default 10). Each scenario gets a 2 s warm-up that is not reported. The load
 * generator (autocannon, one thread) shares the machine with the server, so absolute figures are a
 * floor, not a capacity. Uses its own ports and data directory, so a running portal is not disturbed;
 * with DATABASE_URL the run appends its audit events (event id `bench:api-load`) to that database.
 * Reports figures only: exits 1 when a scenario had connection errors, timeouts or statuses it should
 * not have, never because of a timing.
 */
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { memoryOf, root, startPortal, type Portal } from './support/portal';

const ports = { pglite: 3391, postgres: 3392 } as const;
const warmUpSeconds = 2;

/** The event-log service's per-IP limit (eventlog.service.ts): unauthenticated posts a minute. */
const auditPostsPerIpPerMinute = 60;

function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:api: --${name} needs a whole number of at least 1`);
    process.exit(2);
  }
  return value;
}

const durationSeconds = numberOption('duration', 10);
const connections = numberOption('connections', 10);

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
// autocannon's latency histogram holds whole milliseconds: a decimal would claim precision it lacks.
const millis = (value: number) => (value < 1 ? '<1' : fixed(value, 0));

interface Scenario {
  name: string;
  /** A function when it depends on the build, which another portal start may replace at any time. */
  path: string | (() => string);
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Rewrites each request before it is sent (distinct clients). */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
  /** The status every response should have; the req/s column counts only these. */
  expect: number;
  /** Other statuses that are right in small numbers: status to the most that may answer with it. */
  tolerate?: Record<number, number>;
  /** Shown under the table, for figures that need reading with care. */
  note?: (path: string) => string;
  /** A likely cause, added to the problems when the scenario went wrong. */
  explain?: (path: string) => string | undefined;
}

interface Outcome {
  scenario: Scenario;
  path: string;
  result: autocannon.Result;
  statuses: Map<number, number>;
  /** Responses with the expected status, per second. */
  reqPerSec: number;
  bytesPerResponse: number;
  problems: string[];
}

interface Run {
  database: string;
  outcomes: Outcome[];
  rss?: { nowMb: number; peakMb: number };
}

const assetsDir = path.join(root, 'apps', 'web', 'dist', 'assets');

/** Size on disk of a file of the build, undefined once a rebuild has removed it. */
const assetSize = (urlPath: string) =>
  statSync(path.join(assetsDir, path.basename(urlPath)), { throwIfNoEntry: false })?.size;

/** The largest hashed script of the build: the one whose serving cost matters most. */
function largestAsset(): string {
  const scripts = readdirSync(assetsDir)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, size: assetSize(name) ?? 0 }))
    .sort((a, b) => b.size - a.size);
  if (!scripts[0]) throw new Error(`no .js file in ${assetsDir}`);
  return `/assets/${scripts[0].name}`;
}

// A counter shared by every run, so a client address or session id is not reused within the limits'
// one-minute window, even across the two databases or a quick rerun against the same PostgreSQL.
let clientNumber = Math.floor(Math.random() * 65536);
const runTag = Date.now().toString(36);

/** One of the 131,072 benchmarking addresses (198.18.0.0/15, RFC 2544), never a real client's. */
function benchAddress(n: number): string {
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}

function auditEvent(sessionId: string): string {
  return JSON.stringify({
    sessionId,
    eventId: 'bench:api-load',
    authenticationStatus: 'Unauthenticated',
    isSuccess: false,
    failureReason: 'Authentication failure',
  });
}

function scenarios(): Scenario[] {
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  return [
    { name: 'GET /healthz', path: '/healthz', expect: 200 },
    { name: 'GET /readyz (SELECT 1)', path: '/readyz', expect: 200 },
    {
      name: 'content getbytype SiteSettings',
      path: '/api/v1/content/getbytype?type=SiteSettings',
      headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
      expect: 200,
    },
    {
      name: 'content getByRelativeUrl /login',
      path: '/api/v1/content/getByRelativeUrl?relativeUrl=%2Flogin',
      headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
      expect: 200,
    },
    {
      name: 'content getnavigation',
      path: '/api/v1/content/getnavigation',
      headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
      expect: 200,
    },
    {
      name: 'SPA page GET /login',
      path: '/login',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
      expect: 200,
    },
    {
      name: 'largest JS asset (static)',
      path: largestAsset,
      headers: { 'accept-encoding': 'br, gzip' },
      expect: 200,
      note: (asset) => {
        const size = assetSize(asset);
        return `${asset}, ${size === undefined ? 'since deleted' : `${fixed(size / 1024, 0)} KB before compression`}`;
      },
      explain: (asset) =>
        assetSize(asset) === undefined
          ? `${asset} was deleted during the run: apps/web/dist was rebuilt (by another portal start?)`
          : undefined,
    },
    {
      name: 'OIDC discovery document',
      path: '/oauth2/default/.well-known/openid-configuration',
      headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
      expect: 200,
    },
    {
      name: 'OIDC JWKS',
      path: '/oauth2/default/v1/keys',
      headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
      expect: 200,
    },
    {
      // Many browsers, each under its limits: the write path as production sees it behind a proxy.
      name: 'POST audit event (distinct clients)',
      path: '/api/v1/audit',
      method: 'POST',
      headers: json,
      setupRequest: (request) => {
        const n = clientNumber++;
        return {
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': benchAddress(n) },
          body: auditEvent(`bench-${runTag}-${n}`),
        };
      },
      expect: 202,
      note: () => 'each request from its own address and session id (X-Forwarded-For, TRUST_PROXY=true)',
    },
    {
      // One browser hammering the endpoint: after its allowance every answer is a 429.
      name: 'POST audit event (one client, limited)',
      path: '/api/v1/audit',
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': benchAddress(131071) },
      body: auditEvent(`bench-${runTag}-limited`),
      expect: 429,
      tolerate: { 202: auditPostsPerIpPerMinute },
      note: () =>
        `rate limited by design (${auditPostsPerIpPerMinute} a minute per address): req/s counts the 429 rejections`,
    },
    {
      name: 'bad request (no relativeUrl)',
      path: '/api/v1/content/getByRelativeUrl',
      headers: { accept: 'application/json' },
      expect: 400,
      note: () => 'req/s counts the 400 answers',
    },
  ];
}

function load(url: string, scenario: Scenario, urlPath: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}${urlPath}`,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        method: scenario.method ?? 'GET',
        path: urlPath,
        headers: scenario.headers ?? {},
        ...(scenario.body === undefined ? {} : { body: scenario.body }),
        ...(scenario.setupRequest ? { setupRequest: scenario.setupRequest } : {}),
      },
    ],
  });
}

function judge(scenario: Scenario, urlPath: string, result: autocannon.Result): Outcome {
  const statuses = new Map<number, number>();
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statuses.set(Number(status), stats.count ?? 0);
  }
  const responses = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  const expected = statuses.get(scenario.expect) ?? 0;
  const problems: string[] = [];
  // autocannon counts a timeout as an error too.
  if (result.errors > 0)
    problems.push(`${result.errors} connection errors (${result.timeouts} of them timeouts)`);
  if (expected === 0) problems.push(`no ${scenario.expect} at all`);
  for (const [status, count] of statuses) {
    if (status === scenario.expect) continue;
    const allowed = scenario.tolerate?.[status];
    if (allowed === undefined || count > allowed) problems.push(`${count} × ${status}`);
  }
  const cause = problems.length > 0 ? scenario.explain?.(urlPath) : undefined;
  if (cause) problems.push(cause);
  return {
    scenario,
    path: urlPath,
    result,
    statuses,
    reqPerSec: result.duration > 0 ? expected / result.duration : 0,
    bytesPerResponse: responses > 0 ? result.throughput.total / responses : 0,
    problems,
  };
}

let running: Portal | undefined;

// The portal runs in its own process group: stop it on Ctrl-C too, or it keeps the port.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nbench:api: ${signal}, stopping the portal`);
    void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function runAgainst(database: string, port: number, env: Record<string, string>): Promise<Run> {
  console.error(`Starting the portal on ${database} (port ${port})…`);
  // The audit scenario's clients are told apart by X-Forwarded-For, as behind a load balancer.
  const portal = await startPortal({ port, env: { ...env, TRUST_PROXY: 'true' } });
  running = portal;
  try {
    const outcomes: Outcome[] = [];
    for (const scenario of scenarios()) {
      const urlPath = typeof scenario.path === 'string' ? scenario.path : scenario.path();
      console.error(`  ${scenario.name}: ${urlPath}`);
      await load(portal.url, scenario, urlPath, warmUpSeconds);
      outcomes.push(judge(scenario, urlPath, await load(portal.url, scenario, urlPath, durationSeconds)));
    }
    return { database, outcomes, rss: memoryOf(portal.pid) };
  } finally {
    await portal.stop();
    running = undefined;
  }
}

function table(headings: string[], rows: string[][]): string {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  // The first column is text and reads best left-aligned; the figures line up on the right.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headings), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const columns = [
  'scenario',
  'req/s',
  'p50 ms',
  'p97.5 ms',
  'p99 ms',
  'max ms',
  'non-2xx',
  '429',
  'errors',
  'KB/resp',
  'ratio',
];

function report(run: Run): void {
  const baseline = run.outcomes[0]?.reqPerSec ?? 0;
  const rows = run.outcomes.map((o) => [
    o.scenario.name,
    fixed(o.reqPerSec, 0),
    millis(o.result.latency.p50),
    millis(o.result.latency.p97_5),
    millis(o.result.latency.p99),
    millis(o.result.latency.max),
    String(o.result.non2xx),
    String(o.statuses.get(429) ?? 0),
    String(o.result.errors),
    fixed(o.bytesPerResponse / 1024),
    baseline > 0 ? fixed(o.reqPerSec / baseline, 2) : '-',
  ]);
  console.log(`\n${run.database}`);
  console.log(table(columns, rows));
  for (const [i, o] of run.outcomes.entries()) {
    if (o.scenario.note) console.log(`  ${i + 1}. ${o.scenario.name}: ${o.scenario.note(o.path)}`);
  }
  console.log(
    run.rss
      ? `Server memory after the load: ${run.rss.nowMb} MB resident (peak ${run.rss.peakMb} MB).`
      : 'Server memory: not measured (needs Linux /proc).',
  );
}

function compare(embedded: Run, server: Run): void {
  const rows = embedded.outcomes.map((e, i) => {
    const s = server.outcomes[i];
    return [
      e.scenario.name,
      fixed(e.reqPerSec, 0),
      fixed(s?.reqPerSec ?? NaN, 0),
      s && e.reqPerSec > 0 ? fixed(s.reqPerSec / e.reqPerSec, 2) : '-',
    ];
  });
  console.log('\nPostgreSQL against PGlite (req/s)');
  console.log(table(['scenario', 'PGlite', 'PostgreSQL', 'PG/PGlite'], rows));
}

console.log(
  `API load: ${connections} connections, pipelining 1, ${durationSeconds} s a scenario after a ${warmUpSeconds} s warm-up` +
    ` (${os.cpus().length} cores, Node ${process.version}).\nreq/s counts responses with the expected status;` +
    ' latencies cover every response; KB/resp includes headers; ratio is req/s over /healthz req/s.',
);

const runs: Run[] = [await runAgainst('PGlite (embedded)', ports.pglite, {})];
report(runs[0]!);
const databaseUrl = process.env['DATABASE_URL'];
if (databaseUrl) {
  const server = await runAgainst('PostgreSQL (DATABASE_URL)', ports.postgres, { DATABASE_URL: databaseUrl });
  runs.push(server);
  report(server);
  compare(runs[0]!, server);
}

const failures = runs.flatMap((run) =>
  run.outcomes
    .filter((o) => o.problems.length > 0)
    .map((o) => `${run.database}, ${o.scenario.name}: ${o.problems.join(', ')}`),
);
if (failures.length > 0) {
  console.log(`\nUnexpected results:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nEvery scenario answered as expected (no errors, timeouts or unexpected statuses).');
}
