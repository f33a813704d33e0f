/**
 * API load benchmark: throughput and latency of the built server under concurrent load, endpoint by
 * endpoint, on the embedded database and, when DATABASE_URL is set, on that PostgreSQL server as well.
 * Each figure is also given relative to GET /healthz on the same server in the same run, so a run on a
 * busy or slow machine still says which endpoints cost what.
 *
 * Four parts, each on the same portal:
 * - Platform (`--connections`, default 10): health, content, the SPA page and a hashed asset, the OpenID
 *   discovery document and keys, the audit-event write path and the 400 error path.
 * - Audit writes (`--audit-connections`, default 100): the audit-event write path, each request from its
 *   own address and session id (after GET /healthz at as many connections, the ratios' baseline),
 *   against its target (issue 15): at least 1,000 req/s on the embedded database and 3,000 on
 *   PostgreSQL. The measured run sends a fixed number of requests (what the
 *   warm-up's rate, or the target if higher, gives in `--duration` seconds, at most three times the
 *   warm-up's) and waits for every answer; after the portal has shut
 *   down (gracefully, SIGTERM) the rows stored with the run's session ids are counted, and must equal the
 *   202 answers: an acknowledged event that is not in the table fails the run.
 * - Customer data (`--data-connections`, default 100): the six calls the SPA makes after sign-in (profile,
 *   policies, quotes, agency, agency with fallback, mutual direct), one policy, its document list and a
 *   policy PDF, the billing list and a billing PDF, the messages list and the unread count (issue 40), as
 *   Helen Dawson (C1000007), signed in over HTTP the way the SPA does (support/sign-in.ts). Each is checked against its target (issues 11 and 12): on the
 *   embedded database at least 2,500 req/s with p99 under 100 ms, on PostgreSQL at least 8,000 req/s
 *   with p99 under 30 ms, and for a PDF p99 under 100 ms. A miss is reported, not failed.
 *   Before the load, each call's statements are captured once, warm (PORTAL_SQL_CAPTURE_FILE,
 *   platform/sql-capture.ts) and listed with the rows each returned (`--explain`: with their plans). On
 *   PostgreSQL each call is then also measured against its bare peer (support/bare-peer.ts: the same
 *   statements and parameters from a minimal Fastify route with a pg pool of the same size, no guard,
 *   validation or envelope) right after the portal, in the same run (and /healthz against a peer route that
 *   runs nothing and answers the same: the floor, what the portal's platform costs a request before any
 *   guard or SQL), and against issue 27's targets: every
 *   read at least 0.8 of its peer, the policies list p99 under 50 ms, a PDF at least 2,000 req/s with p99
 *   under 100 ms. Beside each: the CPU time per answer of the server (portal or peer) and of PostgreSQL,
 *   read from /proc during the load.
 * - Password change (embedded database only): the change request at a fixed 10 a second, p95 under
 *   250 ms (support/password-change.ts says how, within the code and attempt limits).
 *
 * Run with `npm run bench:api`. Options: `--duration S` (seconds per load scenario, default 10),
 * `--connections N`, `--audit-connections N`, `--data-connections N`,
 * `--only platform|audit|data|password` (one part; default all),
 * `--match TEXT` (only the customer data calls whose name contains TEXT, e.g. `--match pdf`),
 * `--database embedded|postgres` (one database; default both), `--pool-size N` (the portal's and the
 * peer's pool on PostgreSQL, default 10), `--explain` (each captured statement's plan, on PostgreSQL).
 * Each load scenario gets a 2 s warm-up that is not reported. The load generator (autocannon, one thread)
 * shares the machine with the server, so absolute figures are a floor, not a capacity. Uses its own
 * ports and data directory, so a running portal is not disturbed; with DATABASE_URL the run appends its
 * audit events (event id `bench:api-load`) to that database and signs Helen in there once (one of her
 * 10 codes an hour). Exits 1 when a scenario had connection errors, timeouts or statuses it should not
 * have, never because of a timing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { runPasswordChanges, type PasswordChangeRun } from './support/password-change';
import type { CapturedCall, CapturedStatement } from '../apps/server/src/platform/sql-capture';
import type { PeerBatch, PeerSpec } from './support/bare-peer';
import { memoryOf, percentile, root, sleep, startPortal, stopGroup, type Portal } from './support/portal';
import { accessToken, demoCustomers } from './support/sign-in';

const ports = { pglite: 3391, postgres: 3392, peer: 3394 } as const;
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
const dataConnections = numberOption('data-connections', 100);
const auditConnections = numberOption('audit-connections', 100);
/** The portal's pool on PostgreSQL (DATABASE_POOL_SIZE), and the bare peer's. */
const poolSize = numberOption('pool-size', 10);

const parts = ['platform', 'audit', 'data', 'password'] as const;
type Part = (typeof parts)[number];
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];
if (only !== undefined && !parts.includes(only as Part)) {
  console.error(`bench:api: --only is one of ${parts.join(', ')}`);
  process.exit(2);
}
const runs = (part: Part) => only === undefined || only === part;
/** `--database embedded|postgres`: one of the two (default both; PostgreSQL only with DATABASE_URL). */
const databaseAt = process.argv.indexOf('--database');
const onlyDatabase = databaseAt === -1 ? undefined : process.argv[databaseAt + 1];
if (onlyDatabase !== undefined && onlyDatabase !== 'embedded' && onlyDatabase !== 'postgres') {
  console.error('bench:api: --database is embedded or postgres');
  process.exit(2);
}
/** Print each captured statement's plan (EXPLAIN ANALYZE, on PostgreSQL) after the statements. */
const explain = process.argv.includes('--explain');
const matchAt = process.argv.indexOf('--match');
/** Only the customer data calls whose name contains this (with /healthz, the baseline). */
const match = matchAt === -1 ? undefined : process.argv[matchAt + 1]?.toLowerCase();

/** Targets of the customer data calls (issues 11 and 12), per database. */
interface Target {
  minReqPerSec?: number;
  maxP99Ms: number;
}
type TargetKind = 'read' | 'pdf';
const targets: Record<'embedded' | 'postgres', Record<TargetKind, Target>> = {
  embedded: { read: { minReqPerSec: 2500, maxP99Ms: 100 }, pdf: { maxP99Ms: 100 } },
  postgres: { read: { minReqPerSec: 8000, maxP99Ms: 30 }, pdf: { maxP99Ms: 100 } },
};
/**
 * Issue 27, on PostgreSQL: every read call at least 0.8 of its bare peer's req/s; the policies list p99
 * under 50 ms; a PDF at least 2,000 req/s with p99 under 100 ms.
 */
const peerTargets = { minRatio: 0.8, policiesP99Ms: 50, pdfReqPerSec: 2000, pdfP99Ms: 100 };
const passwordChangeP95TargetMs = 250;
/** Issue 15: audit events stored a second at 100 connections, per database. */
const auditTargets: Record<'embedded' | 'postgres', number> = { embedded: 1000, postgres: 3000 };

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
  /** Which target of the customer data calls applies, if any. */
  target?: TargetKind;
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
  /** Customer data calls: the statements the call ran (captured once, after a warm-up request). */
  sql?: { statements: number; rows: number; transactions: number };
  /** Customer data calls on PostgreSQL: the same statements from the bare peer, in the same run. */
  peer?: Outcome;
  /**
   * CPU time per answer of the expected status (milliseconds) during the measured load: of the server's
   * process, and of PostgreSQL's processes (on PostgreSQL). Read from /proc, Linux only.
   */
  cpu?: { serverMs: number; databaseMs?: number };
}

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on Linux). */
const ticksPerSecond = 100;

/** CPU time (user and system, milliseconds) of a process, NaN when it cannot be read. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/** CPU time (milliseconds) of each PostgreSQL process on this machine now, by process id. */
function postgresCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
        cpu.set(Number(entry), cpuOf(Number(entry)));
      } catch {
        // The process ended meanwhile.
      }
    }
  } catch {
    // No /proc: not measured.
  }
  return cpu;
}

/**
 * The CPU PostgreSQL spent between two readings: each process's own growth (a new one from zero). A
 * process that ended in between (a pool closing an idle connection) is left out rather than subtracted.
 */
function postgresCpuSince(before: Map<number, number>): number {
  const now = postgresCpu();
  if (now.size === 0) return NaN;
  let total = 0;
  for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** Runs the load and measures the CPU the server (pid) and PostgreSQL spent meanwhile. */
async function withCpu<T>(
  pid: number | undefined,
  database: boolean,
  work: () => Promise<T>,
): Promise<{ value: T; serverMs: number; databaseMs: number }> {
  const server0 = pid === undefined ? NaN : cpuOf(pid);
  const database0 = database ? postgresCpu() : undefined;
  const value = await work();
  return {
    value,
    serverMs: pid === undefined ? NaN : cpuOf(pid) - server0,
    databaseMs: database0 ? postgresCpuSince(database0) : NaN,
  };
}

/** The audit part: one measured run, and the rows it left. */
interface AuditRun {
  /** GET /healthz at the same connections just before: what the machine allowed at the time. */
  baseline: Outcome;
  outcome: Outcome;
  /** Every measured request's session id starts with this (the warm-up's do not). */
  sessionPrefix: string;
  /** 202 answers of the measured run. */
  accepted: number;
  /** Rows with the measured run's session ids, counted after the portal has shut down. */
  rows?: number;
  /** Why they could not be counted. */
  rowsError?: string;
}

interface Run {
  database: string;
  kind: keyof typeof targets;
  outcomes: Outcome[];
  audit?: AuditRun;
  /** The customer data calls, at dataConnections; their first outcome is /healthz. */
  data: Outcome[];
  password?: PasswordChangeRun;
  passwordSkipped?: string;
  rss?: { nowMb: number; peakMb: number };
  /** Whether the portal ran its statements as named prepared statements (and so did the peer). */
  prepared?: boolean;
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

const json = { 'content-type': 'application/json', accept: 'application/json' };

/** Audit posts from many browsers, each under its limits: the write path as production sees it behind a proxy. */
function distinctClientsAudit(sessionPrefix: string): Scenario {
  return {
    name: 'POST audit event (distinct clients)',
    path: '/api/v1/audit',
    method: 'POST',
    headers: json,
    setupRequest: (request) => {
      const n = clientNumber++;
      return {
        ...request,
        headers: { ...request.headers, 'x-forwarded-for': benchAddress(n) },
        body: auditEvent(`${sessionPrefix}${n}`),
      };
    },
    expect: 202,
    note: () =>
      'each request from its own address and session id (X-Forwarded-For, TRUST_PROXY=1, one proxy)',
  };
}

function scenarios(): Scenario[] {
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
    distinctClientsAudit(`bench-${runTag}-`),
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

/** The ids the customer data calls need, read from the customer's own lists. */
interface CustomerIds {
  customerId: string;
  policyId: string;
  policyDocId: string;
  billingDocId: string;
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`GET ${new URL(url).pathname} answered ${response.status}`);
  return (await response.json()) as T;
}

/** The first of the customer's policies that has documents, one of its documents, and a bill. */
async function customerIds(baseUrl: string, customerId: string, token: string): Promise<CustomerIds> {
  type Summary = { policyNumber: string };
  type Page<T> = { data: T[] };
  const api = `${baseUrl}/api/v1`;
  const policies = await getJson<Record<'active' | 'renewing' | 'upcoming' | 'expired', Summary[]>>(
    `${api}/policy/${customerId}?page=1`,
    token,
  );
  let policy: { policyId: string; policyDocId: string } | undefined;
  for (const { policyNumber } of [...policies.active, ...policies.renewing, ...policies.upcoming]) {
    const packs = await getJson<Page<{ documentSummaries: { id: string }[] }>>(
      `${api}/document/policy/${customerId}/${policyNumber}?page=1&pageSize=10`,
      token,
    );
    const doc = packs.data[0]?.documentSummaries[0];
    if (doc) {
      policy = { policyId: policyNumber, policyDocId: doc.id };
      break;
    }
  }
  if (!policy) throw new Error(`${customerId} has no policy with documents`);
  const bills = await getJson<Page<{ documentSummaries: { id: string }[] }>>(
    `${api}/document/billing/${customerId}?page=1&pageSize=10`,
    token,
  );
  const bill = bills.data[0]?.documentSummaries[0];
  if (!bill) throw new Error(`${customerId} has no billing documents`);
  return { customerId, ...policy, billingDocId: bill.id };
}

/** The customer data calls as the SPA makes them (document page size 10). */
function dataScenarios(ids: CustomerIds, token: string): Scenario[] {
  const { customerId: c, policyId: p } = ids;
  // As Chromium sends them: a JSON answer over 1 KB is compressed for each request (brotli, quality 4).
  const browser = { 'accept-encoding': 'gzip, deflate, br', authorization: `Bearer ${token}` };
  const headers = { ...browser, accept: 'application/json' };
  const pdf = { ...browser, accept: 'application/pdf' };
  const read = (name: string, path: string): Scenario => ({
    name,
    path,
    headers,
    expect: 200,
    target: 'read',
  });
  return [
    { name: 'GET /healthz', path: '/healthz', expect: 200 },
    read('profile', `/api/v1/profile/${c}`),
    read('policies (page 1)', `/api/v1/policy/${c}?page=1`),
    read('quotes', `/api/v1/quote/${c}`),
    read('agency', `/api/v1/agency/${c}`),
    read('agency with fallback', `/api/v1/agency/${c}/fallback`),
    read('agency mutual direct', '/api/v1/agency/mutual-direct'),
    read('one policy', `/api/v1/policy/${c}/${p}`),
    read('policy documents list', `/api/v1/document/policy/${c}/${p}?page=1&pageSize=10`),
    {
      name: 'policy document PDF',
      path: `/api/v1/document/policy/${c}/${p}/${encodeURIComponent(ids.policyDocId)}`,
      headers: pdf,
      expect: 200,
      target: 'pdf',
    },
    read('billing list', `/api/v1/document/billing/${c}?page=1&pageSize=10`),
    {
      name: 'billing PDF',
      path: `/api/v1/document/billing/${c}/${encodeURIComponent(ids.billingDocId)}`,
      headers: pdf,
      expect: 200,
      target: 'pdf',
    },
    read('messages list', `/api/v1/message/${c}?page=1&pageSize=10`),
    read('unread messages count', `/api/v1/message/unread/${c}`),
  ];
}

/** Load for `seconds`, or, with `amount`, exactly that many requests, every answer waited for. */
function load(
  url: string,
  scenario: Scenario,
  urlPath: string,
  seconds: number,
  connectionCount: number,
  amount?: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}${urlPath}`,
    connections: connectionCount,
    // With a fixed amount, autocannon notices the last answer only at its next sample (every second by
    // default), and counts the idle time until then in the run's duration: a 5.1 s run was reported as
    // 6.0 s (15,000 answers "at 2,488 req/s"). Sampling every 100 ms keeps that under a tenth of a second.
    ...(amount === undefined ? { duration: seconds } : { amount, sampleInt: 100 }),
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

/** The bare peer of each customer data call: its path on the peer, by the call's name. */
interface Peer {
  url: string;
  pid: number;
  paths: Map<string, string>;
}

/** Whose CPU the customer data part measures: the server's process, and PostgreSQL's. */
interface CpuWatch {
  pid: number;
  database: boolean;
}

async function measureAll(
  baseUrl: string,
  list: Scenario[],
  connectionCount: number,
  captured?: Map<string, Outcome['sql']>,
  peer?: Peer,
  watch?: CpuWatch,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const scenario of list) {
    const urlPath = typeof scenario.path === 'string' ? scenario.path : scenario.path();
    console.error(`  ${scenario.name}: ${urlPath}`);
    await load(baseUrl, scenario, urlPath, warmUpSeconds, connectionCount);
    const measured = await withCpu(watch?.pid, watch?.database ?? false, () =>
      load(baseUrl, scenario, urlPath, durationSeconds, connectionCount),
    );
    const outcome = judge(scenario, urlPath, measured.value);
    if (watch) outcome.cpu = perAnswer(outcome, measured);
    const sql = captured?.get(scenario.name);
    if (sql) outcome.sql = sql;
    // The peer right after the portal, at the same connections: the same conditions for both.
    const peerPath = peer?.paths.get(scenario.name);
    if (peer && peerPath) {
      console.error(`  ${scenario.name}, bare peer: ${peerPath}`);
      const bare = { ...scenario, name: `${scenario.name} (bare peer)`, target: undefined };
      await load(peer.url, bare, peerPath, warmUpSeconds, connectionCount);
      const bareRun = await withCpu(peer.pid, watch?.database ?? false, () =>
        load(peer.url, bare, peerPath, durationSeconds, connectionCount),
      );
      outcome.peer = judge(bare, peerPath, bareRun.value);
      outcome.peer.cpu = perAnswer(outcome.peer, bareRun);
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

function perAnswer(outcome: Outcome, { serverMs, databaseMs }: { serverMs: number; databaseMs: number }) {
  const answers = outcome.statuses.get(outcome.scenario.expect) ?? 0;
  return {
    serverMs: answers > 0 ? serverMs / answers : NaN,
    ...(Number.isNaN(databaseMs) ? {} : { databaseMs: answers > 0 ? databaseMs / answers : NaN }),
  };
}

/**
 * Each customer data call's statements, as the portal runs them once warm: one request unmeasured
 * (caches filled, the guard's grant check done), then one sent with X-Portal-Sql-Capture, whose
 * statements the portal appends to the capture file (platform/sql-capture.ts). The answer's body is kept
 * too: the bare peer sends a PDF's bytes.
 */
async function captureCalls(
  baseUrl: string,
  list: Scenario[],
  file: string,
): Promise<Map<string, { call: CapturedCall; body: Buffer }>> {
  const captures = new Map<string, { call: CapturedCall; body: Buffer }>();
  for (const [i, scenario] of list.entries()) {
    if (scenario.target === undefined) continue;
    const urlPath = typeof scenario.path === 'string' ? scenario.path : scenario.path();
    const headers = scenario.headers ?? {};
    await (await fetch(`${baseUrl}${urlPath}`, { headers })).arrayBuffer();
    const correlationId = `bench-capture-${runTag}-${i}`;
    const response = await fetch(`${baseUrl}${urlPath}`, {
      headers: { ...headers, 'x-portal-sql-capture': '1', 'x-correlationid': correlationId },
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== scenario.expect) {
      throw new Error(`${scenario.name}: capturing its SQL, the portal answered ${response.status}`);
    }
    // The line is written once the response has gone: wait for it.
    let call: CapturedCall | undefined;
    for (let tries = 0; !call && tries < 100; tries++) {
      if (tries > 0) await sleep(20);
      const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
      call = lines
        .map((line) => JSON.parse(line) as CapturedCall)
        .find((c) => c.correlationId === correlationId);
    }
    if (!call) throw new Error(`${scenario.name}: no statements captured in ${file}`);
    captures.set(scenario.name, { call, body });
  }
  return captures;
}

/** Statements in the order they started: those that overlapped run at once, a transaction's together. */
function batchesOf(statements: CapturedStatement[]): PeerBatch[] {
  const batches: Array<PeerBatch & { transaction?: number; ends: number[] }> = [];
  for (const s of [...statements].sort((a, b) => a.startMs - b.startMs)) {
    const statement = { sql: s.sql, params: [...s.params], ...(s.name ? { name: s.name } : {}) };
    const last = batches.at(-1);
    if (s.transaction !== undefined) {
      if (last?.kind === 'transaction' && last.transaction === s.transaction) last.statements.push(statement);
      else
        batches.push({ kind: 'transaction', transaction: s.transaction, statements: [statement], ends: [] });
    } else if (last?.kind === 'parallel' && last.ends.some((end) => s.startMs < end)) {
      last.statements.push(statement);
      last.ends.push(s.endMs);
    } else {
      batches.push({ kind: 'parallel', statements: [statement], ends: [s.endMs] });
    }
  }
  return batches.map(({ kind, statements: list }) => ({ kind, statements: list }));
}

/** Each call's statements (text on one line, shortened; parameters left out) and the rows each returned. */
function printStatements(database: string, captures: Map<string, { call: CapturedCall }>): void {
  console.log(
    `\nStatements of each customer data call on ${database} (once warm; in the order they started):`,
  );
  for (const [name, { call }] of captures) {
    console.log(`  ${name}: ${call.statements.length} statements`);
    for (const st of [...call.statements].sort((a, b) => a.startMs - b.startMs)) {
      const text = st.sql.replace(/\s+/g, ' ').trim();
      const where = st.transaction === undefined ? '' : ` [transaction ${st.transaction}]`;
      console.log(
        `    ${fixed(st.startMs, 2)}-${fixed(st.endMs, 2)} ms, ${st.rows} rows${where}: ${text.length > 160 ? `${text.slice(0, 157)}...` : text}`,
      );
    }
  }
}

/** The plan of each captured statement as PostgreSQL runs it (EXPLAIN ANALYZE; reads only). */
async function printPlans(databaseUrl: string, captures: Map<string, { call: CapturedCall }>): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const [name, { call }] of captures) {
      for (const [i, st] of call.statements.entries()) {
        if (!/^\s*(SELECT|WITH)\b/i.test(st.sql)) continue;
        // Run twice: the first plans with an empty cache; the second is what a warm connection does.
        const sql = `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${st.sql}`;
        await client.query(sql, [...st.params]);
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(sql, [...st.params]);
        console.log(`\nPlan of ${name}, statement ${i + 1} of ${call.statements.length}:`);
        for (const row of rows) console.log(`  ${row['QUERY PLAN']}`);
      }
    }
  } finally {
    await client.end();
  }
}

/** Starts the bare peer (support/bare-peer.ts) with the captured calls; stopped with stopGroup. */
async function startPeer(
  databaseUrl: string,
  list: Scenario[],
  captures: Map<string, { call: CapturedCall; body: Buffer }>,
  dir: string,
): Promise<{ peer: Peer; child: ChildProcess }> {
  const spec: PeerSpec = { databaseUrl, poolSize, port: ports.peer, calls: [] };
  const paths = new Map<string, string>();
  for (const scenario of list) {
    if (scenario.path === '/healthz') {
      // The floor: the same answer with no statements, against the portal's platform without guard or SQL.
      paths.set(scenario.name, `/peer/${spec.calls.length}`);
      spec.calls.push({ batches: [], answer: { status: 'ok' } });
      continue;
    }
    const captured = captures.get(scenario.name);
    if (!captured) continue;
    let pdfFile: string | undefined;
    if (scenario.target === 'pdf') {
      pdfFile = path.join(dir, `peer-${spec.calls.length}.pdf`);
      writeFileSync(pdfFile, captured.body);
    }
    paths.set(scenario.name, `/peer/${spec.calls.length}`);
    spec.calls.push({ batches: batchesOf(captured.call.statements), ...(pdfFile ? { pdfFile } : {}) });
  }
  const specFile = path.join(dir, 'peer.json');
  writeFileSync(specFile, JSON.stringify(spec));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'support', 'bare-peer.ts'), specFile],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare peer exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  return { peer: { url: `http://127.0.0.1:${ports.peer}`, pid: child.pid!, paths }, child };
}

/**
 * The audit part: a warm-up for warmUpSeconds, then a fixed number of requests (see amount below)
 * taking about durationSeconds, all answered before it ends, so the 202s can be set against the rows
 * afterwards.
 */
async function measureAudit(baseUrl: string, kind: Run['kind']): Promise<AuditRun> {
  const [baseline] = await measureAll(
    baseUrl,
    [{ name: 'GET /healthz', path: '/healthz', expect: 200 }],
    auditConnections,
  );
  const warmUp = distinctClientsAudit(`bench-${runTag}-audit-${kind}-warm-`);
  console.error(`  ${warmUp.name}, ${auditConnections} connections`);
  const warm = judge(
    warmUp,
    '/api/v1/audit',
    await load(baseUrl, warmUp, '/api/v1/audit', warmUpSeconds, auditConnections),
  );
  // What the warm-up's rate, or the target if higher, gives in durationSeconds (a stall in the short
  // warm-up must not make the measured run short too); never more than three times the warm-up's.
  const rate = Math.min(Math.max(warm.reqPerSec, auditTargets[kind]), 3 * warm.reqPerSec);
  const amount = Math.max(auditConnections, Math.round(rate * durationSeconds));
  const sessionPrefix = `bench-${runTag}-audit-${kind}-run-`;
  const scenario = distinctClientsAudit(sessionPrefix);
  const result = await load(baseUrl, scenario, '/api/v1/audit', durationSeconds, auditConnections, amount);
  const outcome = judge(scenario, '/api/v1/audit', result);
  return { baseline: baseline!, outcome, sessionPrefix, accepted: outcome.statuses.get(202) ?? 0 };
}

/** Rows whose session id starts with the prefix, read straight from the database the portal used. */
async function countAuditRows(kind: Run['kind'], portal: Portal, prefix: string): Promise<number> {
  const sql = 'SELECT count(*)::int AS n FROM audit_event WHERE starts_with(session_id, $1)';
  if (kind === 'postgres') {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await client.connect();
    try {
      return Number((await client.query<{ n: number }>(sql, [prefix])).rows[0]?.n);
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({ dataDir: path.join(portal.dataDir, 'pglite') });
  try {
    return Number((await db.query<{ n: number }>(sql, [prefix])).rows[0]?.n);
  } finally {
    await db.close();
  }
}

async function runAgainst(
  database: string,
  kind: Run['kind'],
  port: number,
  env: Record<string, string>,
): Promise<Run> {
  console.error(`Starting the portal on ${database} (port ${port})…`);
  // The audit scenario's clients are told apart by X-Forwarded-For, as behind a load balancer.
  const captureDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-sql-'));
  const captureFile = path.join(captureDir, 'statements.jsonl');
  const portal = await startPortal({
    port,
    env: {
      ...env,
      TRUST_PROXY: '1',
      PORTAL_SQL_CAPTURE_FILE: captureFile,
      ...(kind === 'postgres' ? { DATABASE_POOL_SIZE: String(poolSize) } : {}),
    },
  });
  running = portal;
  let stopped = false;
  try {
    const run: Run = { database, kind, outcomes: [], data: [] };
    if (runs('platform')) run.outcomes = await measureAll(portal.url, scenarios(), connections);
    if (runs('audit')) run.audit = await measureAudit(portal.url, kind);
    if (runs('data')) {
      const helen = demoCustomers.helen;
      const token = await accessToken(portal.url, helen);
      const ids = await customerIds(portal.url, helen.customerId, token);
      console.error(`  (customer data calls as ${helen.customerId}, ${dataConnections} connections)`);
      const chosen = dataScenarios(ids, token).filter(
        (scenario, i) => i === 0 || match === undefined || scenario.name.toLowerCase().includes(match),
      );
      const captures = await captureCalls(portal.url, chosen, captureFile);
      const sql = new Map(
        [...captures].map(([name, { call }]) => [
          name,
          {
            statements: call.statements.length,
            rows: call.statements.reduce((sum, st) => sum + st.rows, 0),
            transactions: new Set(call.statements.map((st) => st.transaction).filter((n) => n !== undefined))
              .size,
          },
        ]),
      );
      printStatements(run.database, captures);
      if (explain && env['DATABASE_URL']) await printPlans(env['DATABASE_URL'], captures);
      run.prepared = [...captures.values()].some(({ call }) => call.statements.some((st) => st.name));
      const databaseUrl = env['DATABASE_URL'];
      const peer = databaseUrl ? await startPeer(databaseUrl, chosen, captures, captureDir) : undefined;
      try {
        run.data = await measureAll(portal.url, chosen, dataConnections, sql, peer?.peer, {
          pid: portal.pid,
          database: kind === 'postgres',
        });
      } finally {
        if (peer) await stopGroup(peer.child);
      }
    }
    // Last: a change ends the customer's other sessions, the read scenarios' token among them.
    if (runs('password')) {
      if (kind === 'embedded') {
        console.error('  password change at 10 a second');
        run.password = await runPasswordChanges(portal.url);
      } else {
        run.passwordSkipped =
          "not run on DATABASE_URL: it changes the demo customers' passwords and spends their hourly codes, " +
          'which other users of a shared database rely on';
      }
    }
    run.rss = memoryOf(portal.pid);
    if (run.audit) {
      // After a graceful shutdown, which must have committed everything it acknowledged.
      await portal.stop({ keepData: true });
      stopped = true;
      const audit = run.audit;
      audit.rows = await countAuditRows(kind, portal, audit.sessionPrefix).catch((error: unknown) => {
        audit.rowsError = error instanceof Error ? error.message : String(error);
        return undefined;
      });
    }
    return run;
  } finally {
    if (stopped) rmSync(portal.dataDir, { recursive: true, force: true });
    else await portal.stop();
    rmSync(captureDir, { recursive: true, force: true });
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

function rowsOf(outcomes: Outcome[]): string[][] {
  const baseline = outcomes[0]?.reqPerSec ?? 0;
  return outcomes.map((o) => [
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
}

/** "met" or what was missed, against the target of the scenario's kind on this database. */
function verdict(run: Run, o: Outcome): string {
  if (!o.scenario.target) return '';
  const target = targets[run.kind][o.scenario.target];
  const missed: string[] = [];
  if (target.minReqPerSec !== undefined && o.reqPerSec < target.minReqPerSec) {
    missed.push(`req/s < ${target.minReqPerSec}`);
  }
  if (!(o.result.latency.p99 < target.maxP99Ms)) missed.push(`p99 >= ${target.maxP99Ms} ms`);
  return missed.length === 0 ? 'met' : `MISSED: ${missed.join(', ')}`;
}

/** Issue 27's targets for a customer data call on PostgreSQL. */
function peerVerdict(o: Outcome): string {
  const missed: string[] = [];
  const p99 = o.result.latency.p99;
  if (o.scenario.target === 'pdf') {
    if (o.reqPerSec < peerTargets.pdfReqPerSec) missed.push(`req/s < ${peerTargets.pdfReqPerSec}`);
    if (!(p99 < peerTargets.pdfP99Ms)) missed.push(`p99 >= ${peerTargets.pdfP99Ms} ms`);
  } else {
    const ratio = o.peer && o.peer.reqPerSec > 0 ? o.reqPerSec / o.peer.reqPerSec : NaN;
    if (!(ratio >= peerTargets.minRatio)) missed.push(`ratio < ${peerTargets.minRatio}`);
    if (o.scenario.name.startsWith('policies') && !(p99 < peerTargets.policiesP99Ms)) {
      missed.push(`p99 >= ${peerTargets.policiesP99Ms} ms`);
    }
  }
  return missed.length === 0 ? 'met' : `MISSED: ${missed.join(', ')}`;
}

function report(run: Run): void {
  console.log(`\n${run.database}`);
  if (run.outcomes.length > 0) {
    console.log(`\nPlatform, ${connections} connections`);
    console.log(table(columns, rowsOf(run.outcomes)));
    for (const [i, o] of run.outcomes.entries()) {
      if (o.scenario.note) console.log(`  ${i + 1}. ${o.scenario.name}: ${o.scenario.note(o.path)}`);
    }
  }
  if (run.audit) {
    const { baseline, outcome, accepted, rows, rowsError } = run.audit;
    const target = auditTargets[run.kind];
    console.log(
      `\nAudit writes, ${auditConnections} connections; target: >= ${target.toLocaleString('en-GB')} req/s`,
    );
    const verdict = outcome.reqPerSec >= target ? 'met' : `MISSED: req/s < ${target}`;
    const [health, audit] = rowsOf([baseline, outcome]);
    console.log(
      table(
        [...columns, 'target'],
        [
          [...health!, ''],
          [...audit!, verdict],
        ],
      ),
    );
    console.log(`  ${accepted} answered 202; ${auditRowsVerdict(run.audit)}`);
    if (rows === undefined) console.log(`  rows not counted: ${rowsError}`);
  }
  if (run.data.length > 0) {
    const { read, pdf } = targets[run.kind];
    console.log(
      `\nCustomer data calls (${demoCustomers.helen.customerId}), ${dataConnections} connections; ` +
        `targets (issues 11, 12): >= ${read.minReqPerSec} req/s and p99 < ${read.maxP99Ms} ms, a PDF p99 < ${pdf.maxP99Ms} ms`,
    );
    const rows = rowsOf(run.data).map((row, i) => [...row, verdict(run, run.data[i]!)]);
    console.log(table([...columns, 'target'], rows));
    console.log(
      `\nThe same calls against their bare peer${run.kind === 'postgres' ? ` (the same statements from a minimal Fastify route, pg pool of ${poolSize}, ${run.prepared ? 'named prepared statements as the portal' : 'unnamed statements as the portal'})` : ' (PostgreSQL only)'}; ` +
        `targets (issue 27): every read >= ${peerTargets.minRatio} of its peer, the policies list p99 < ${peerTargets.policiesP99Ms} ms, ` +
        `a PDF >= ${peerTargets.pdfReqPerSec} req/s with p99 < ${peerTargets.pdfP99Ms} ms.\n` +
        'CPU ms: CPU time per answer of the server process (the portal, or the peer) during the load; DB CPU ms: of ' +
        "PostgreSQL's processes (the whole machine's, on PostgreSQL)",
    );
    console.log(
      table(
        [
          'call',
          'statements',
          'rows',
          'req/s',
          'p99 ms',
          'CPU ms',
          'DB CPU ms',
          'peer req/s',
          'peer p99 ms',
          'peer CPU ms',
          'peer DB CPU ms',
          'ratio to peer',
          'target',
        ],
        run.data
          .filter((o) => o.scenario.target !== undefined || o.peer)
          .map((o) => [
            o.scenario.name,
            o.sql
              ? String(o.sql.statements) + (o.sql.transactions > 0 ? ` (${o.sql.transactions} tx)` : '')
              : '-',
            o.sql ? String(o.sql.rows) : '-',
            fixed(o.reqPerSec, 0),
            millis(o.result.latency.p99),
            fixed(o.cpu?.serverMs ?? NaN, 3),
            fixed(o.cpu?.databaseMs ?? NaN, 3),
            o.peer ? fixed(o.peer.reqPerSec, 0) : '-',
            o.peer ? millis(o.peer.result.latency.p99) : '-',
            fixed(o.peer?.cpu?.serverMs ?? NaN, 3),
            fixed(o.peer?.cpu?.databaseMs ?? NaN, 3),
            o.peer && o.peer.reqPerSec > 0 ? fixed(o.reqPerSec / o.peer.reqPerSec, 2) : '-',
            run.kind === 'postgres' ? (o.scenario.target ? peerVerdict(o) : 'floor: no guard, no SQL') : '',
          ]),
      ),
    );
  }
  if (run.password) {
    const p = run.password;
    const answered = [...p.statuses.values()].reduce((sum, n) => sum + n, 0);
    const p95 = percentile(p.latencies, 95);
    const statuses = [...p.statuses].map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
    console.log(
      `\nPassword change at ${p.ratePerSecond} a second: ${answered} changes over ${fixed(p.seconds)} s (${statuses})\n` +
        `  change request: p50 ${fixed(percentile(p.latencies, 50), 0)} ms, p95 ${fixed(p95, 0)} ms, ` +
        `max ${fixed(Math.max(...p.latencies), 0)} ms; target p95 < ${passwordChangeP95TargetMs} ms: ` +
        `${p95 < passwordChangeP95TargetMs && answered > 0 ? 'met' : 'MISSED'}\n` +
        `  code request alongside: p50 ${fixed(percentile(p.codeLatencies, 50), 0)} ms, ` +
        `p95 ${fixed(percentile(p.codeLatencies, 95), 0)} ms; ` +
        `sent late against the 100 ms slots: p95 ${fixed(percentile(p.lateness, 95), 0)} ms, ` +
        `max ${fixed(Math.max(0, ...p.lateness), 0)} ms`,
    );
    for (const refusal of p.refusals) console.log(`  ${refusal}`);
  } else if (run.passwordSkipped) {
    console.log(`\nPassword change: ${run.passwordSkipped}.`);
  }
  console.log(
    run.rss
      ? `\nServer memory after the load: ${run.rss.nowMb} MB resident (peak ${run.rss.peakMb} MB).`
      : '\nServer memory: not measured (needs Linux /proc).',
  );
}

function auditRowsVerdict({ accepted, rows }: AuditRun): string {
  if (rows === undefined) return 'rows not counted';
  if (rows === accepted) return `${rows} rows stored after shutdown: every acknowledged event is there`;
  if (rows < accepted)
    return `${rows} rows stored after shutdown: ${accepted - rows} acknowledged events LOST`;
  return `${rows} rows stored after shutdown: ${rows - accepted} more rows than 202 answers`;
}

function compare(embedded: Run, server: Run): void {
  // Each part in its own order: both runs measure the same scenarios of a part in the same order.
  const pairs = [
    ...embedded.outcomes.map((e, i) => [e.scenario.name, e, server.outcomes[i]] as const),
    ...(embedded.audit
      ? [
          [
            `${embedded.audit.outcome.scenario.name} (audit part)`,
            embedded.audit.outcome,
            server.audit?.outcome,
          ] as const,
        ]
      : []),
    ...embedded.data.map((e, i) => [`${e.scenario.name} (data part)`, e, server.data[i]] as const),
  ];
  const rows = pairs.map(([name, e, s]) => [
    name,
    fixed(e.reqPerSec, 0),
    fixed(s?.reqPerSec ?? NaN, 0),
    s && e.reqPerSec > 0 ? fixed(s.reqPerSec / e.reqPerSec, 2) : '-',
  ]);
  console.log('\nPostgreSQL against PGlite (req/s)');
  console.log(table(['scenario', 'PGlite', 'PostgreSQL', 'PG/PGlite'], rows));
}

console.log(
  `API load: pipelining 1, ${durationSeconds} s a scenario after a ${warmUpSeconds} s warm-up` +
    ` (${os.cpus().length} cores, Node ${process.version}).\nreq/s counts responses with the expected status;` +
    ' latencies cover every response; KB/resp includes headers; ratio is req/s over /healthz req/s\n' +
    'at the same number of connections in the same run.',
);

const done: Run[] = [];
if (onlyDatabase !== 'postgres') {
  done.push(await runAgainst('PGlite (embedded)', 'embedded', ports.pglite, {}));
  report(done[0]!);
}
const databaseUrl = process.env['DATABASE_URL'];
if (databaseUrl && onlyDatabase !== 'embedded') {
  const server = await runAgainst('PostgreSQL (DATABASE_URL)', 'postgres', ports.postgres, {
    DATABASE_URL: databaseUrl,
  });
  done.push(server);
  report(server);
  if (done[0] !== server) compare(done[0]!, server);
} else if (onlyDatabase === 'postgres') {
  console.error('bench:api: --database postgres needs DATABASE_URL');
  process.exit(2);
}

const failures = done.flatMap((run) => [
  ...[
    ...run.outcomes,
    ...(run.audit ? [run.audit.baseline, run.audit.outcome] : []),
    ...run.data,
    ...run.data.flatMap((o) => (o.peer ? [o.peer] : [])),
  ]
    .filter((o) => o.problems.length > 0)
    .map((o) => `${run.database}, ${o.scenario.name}: ${o.problems.join(', ')}`),
  ...(run.audit && run.audit.rows !== run.audit.accepted
    ? [`${run.database}, audit writes: ${run.audit.accepted} answered 202; ${auditRowsVerdict(run.audit)}`]
    : []),
  ...(run.password && run.password.refusals.length > 0
    ? [`${run.database}, password change: ${run.password.refusals.join('; ')}`]
    : []),
]);
if (failures.length > 0) {
  console.log(`\nUnexpected results:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nEvery scenario answered as expected (no errors, timeouts or unexpected statuses).');
}
