import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from './db';
import { instanceOf, type PlatformContext } from './module';

/*
 * Prometheus metrics (issue 24, decision 022). Each app has its own registry, so the apps a test file
 * builds count apart. Every label is one of a few values fixed in code: route patterns, status classes,
 * limit names, outcomes; never a customer id, an address or a raw path.
 */

/** What became of one step of a sign-in (docs/operations.md lists what each means). */
export type SignInOutcome =
  'signed_in' | 'wrong_password' | 'unknown_user' | 'locked' | 'code_sent' | 'code_refused';

const signInOutcomes: readonly SignInOutcome[] = [
  'signed_in',
  'wrong_password',
  'unknown_user',
  'locked',
  'code_sent',
  'code_refused',
];

/** What the contact centre searches customers by (the staff contract's `by`). */
const staffSearchKinds = ['customerId', 'email', 'policyNumber', 'nameAndBirth'] as const;

/** The outbound message queue as one scrape reads it. */
interface MessageQueueStats {
  /** Messages waiting to be sent or being sent. */
  depth: number;
  /** Seconds the oldest of those has waited; 0 when there is none. */
  oldestAgeSeconds: number;
  /** Messages given up after every attempt. */
  dead: number;
}

/** A scrape reads the message queue at most this often; scrapes in between get the figures read last. */
const QUEUE_STATS_MAX_AGE_MS = 5000;

export interface Metrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  readonly httpInFlight: Gauge;
  readonly dbQueryDuration: Histogram<'operation' | 'outcome'>;
  readonly redisCommandErrors: Counter;
  readonly rateLimitRefusals: Counter<'limit'>;
  readonly signIns: Counter<'outcome'>;
  readonly auditBatchSize: Histogram;
  readonly housekeepingRemoved: Counter<'kind'>;
  /** The contact centre's customer searches (issue 41), by what they searched by. */
  readonly staffSearches: Counter<'kind'>;
  /** Where the pool gauges read from (the app's database). */
  watchDbPool(read: () => PoolStats | undefined): void;
  /** Where the audit queue's depth is read from (the event log's group commit). */
  watchAuditQueue(read: () => number): void;
  /** Where the message queue gauges read from: one query, cached a few seconds. */
  watchMessageQueue(read: () => Promise<MessageQueueStats>): void;
  /** Adds the process metrics (event-loop lag, heap, GC, ...): only for an app whose metrics are served. */
  collectProcessMetrics(): void;
}

/** A fresh set of the portal's metrics in a registry of its own. */
function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  let poolStats: (() => PoolStats | undefined) | undefined;
  let auditDepth: (() => number) | undefined;
  let queueStats: (() => Promise<MessageQueueStats>) | undefined;
  let queueRead: { at: number; stats: Promise<MessageQueueStats | undefined> } | undefined;
  let processMetrics = false;

  const readQueue = (): Promise<MessageQueueStats | undefined> => {
    const now = Date.now();
    if (!queueStats) return Promise.resolve(undefined);
    if (!queueRead || now - queueRead.at >= QUEUE_STATS_MAX_AGE_MS) {
      // A failed read (the database is down) leaves the gauges as they were; the next scrape tries again.
      queueRead = { at: now, stats: queueStats().catch(() => undefined) };
    }
    return queueRead.stats;
  };
  const poolGauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = poolStats?.();
        if (stats) this.set(pick(stats));
      },
    });
  const queueGauge = (name: string, help: string, pick: (s: MessageQueueStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const stats = await readQueue();
        if (stats) this.set(pick(stats));
      },
    });

  poolGauge(
    'portal_db_pool_connections',
    'Database connections open (the embedded database: 1).',
    (s) => s.total,
  );
  poolGauge('portal_db_pool_idle_connections', 'Database connections open and not in use.', (s) => s.idle);
  poolGauge(
    'portal_db_pool_waiting_clients',
    'Queries and transactions waiting for a database connection.',
    (s) => s.waiting,
  );
  queueGauge(
    'portal_message_queue_depth',
    'Outbound messages (email, text, voice) waiting to be sent or being sent.',
    (s) => s.depth,
  );
  queueGauge(
    'portal_message_queue_oldest_age_seconds',
    'Seconds the oldest outbound message waiting to be sent has waited (0 when none waits).',
    (s) => s.oldestAgeSeconds,
  );
  queueGauge(
    'portal_message_queue_dead_letters',
    'Outbound messages given up after every attempt (dead), not yet removed.',
    (s) => s.dead,
  );
  new Gauge({
    name: 'portal_audit_queue_depth',
    help: "The SPA's audit events waiting to be written (AUDIT_QUEUE_MAX refuses more).",
    registers,
    collect() {
      if (auditDepth) this.set(auditDepth());
    },
  });

  const signIns = new Counter({
    name: 'portal_sign_in_outcomes_total',
    help: 'Sign-in steps by outcome: signed_in, wrong_password, unknown_user, locked, code_sent, code_refused.',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Every outcome from 0, so a rate over an outcome that has not happened yet is 0, not missing.
  for (const outcome of signInOutcomes) signIns.inc({ outcome }, 0);

  const staffSearches = new Counter({
    name: 'portal_staff_searches_total',
    help: "The contact centre's customer searches (rate-limited refusals apart), by kind: customerId, email, policyNumber, nameAndBirth.",
    labelNames: ['kind'] as const,
    registers,
  });
  for (const kind of staffSearchKinds) staffSearches.inc({ kind }, 0);

  return {
    registry,
    httpDuration: new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    httpInFlight: new Gauge({
      name: 'portal_http_requests_in_flight',
      help: 'Requests being answered.',
      registers,
    }),
    dbQueryDuration: new Histogram({
      name: 'portal_db_query_duration_seconds',
      help: 'Time of one database query, by operation (SELECT, INSERT, ...) and outcome (ok, error).',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    redisCommandErrors: new Counter({
      name: 'portal_redis_command_errors_total',
      help: 'Redis commands (counters, limits) that failed or were not answered.',
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'portal_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit, by limit name.',
      labelNames: ['limit'] as const,
      registers,
    }),
    signIns,
    staffSearches,
    auditBatchSize: new Histogram({
      name: 'portal_audit_batch_size',
      help: "The SPA's audit events written by one INSERT (group commit).",
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    housekeepingRemoved: new Counter({
      name: 'portal_housekeeping_removed_total',
      help: "Rows removed by housekeeping (this instance's runs), by kind.",
      labelNames: ['kind'] as const,
      registers,
    }),
    watchDbPool: (read) => void (poolStats = read),
    watchAuditQueue: (read) => void (auditDepth = read),
    watchMessageQueue: (read) => {
      queueStats = read;
      queueRead = undefined;
    },
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}

const metricsByContext = new WeakMap<object, Metrics>();

/** The metrics of an app (keyed by its module contexts' instance), created on first use. */
export function metricsOf(ctx: PlatformContext): Metrics {
  const instance = instanceOf(ctx);
  let metrics = metricsByContext.get(instance);
  if (!metrics) {
    metricsByContext.set(instance, (metrics = createMetrics()));
  }
  return metrics;
}

/**
 * The name of the limit a counter key counts against: its first part (`authn`, `mfa-send-ip`, ...), and
 * for the event log's limits the second too (`eventlog:session`). Keys are made in code from a fixed
 * name and an id, so this is one of a few values; anything else is `other`.
 */
export function limitName(key: string): string {
  if (!key.includes(':')) return 'other';
  const [first = '', second = ''] = key.split(':');
  const name = first === 'eventlog' ? `${first}-${second}` : first;
  return /^[a-z][a-z-]{0,40}$/.test(name) ? name : 'other';
}

/** Seconds since `startedNs` (process.hrtime.bigint()). */
export function secondsSince(startedNs: bigint): number {
  return Number(process.hrtime.bigint() - startedNs) / 1e9;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request reached its first hook (for the duration histogram). */
    metricsStartNs: bigint | undefined;
  }
}

/**
 * Counts every request: in flight from its first hook until its response is closed (answered or
 * abandoned), and its duration under the route pattern that served it (Fastify's routeOptions.url), or
 * `unmatched` when none did.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.decorateRequest('metricsStartNs', undefined);
  app.addHook('onRequest', (request, reply, done) => {
    request.metricsStartNs = process.hrtime.bigint();
    metrics.httpInFlight.inc();
    reply.raw.once('close', () => metrics.httpInFlight.dec());
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.metricsStartNs === undefined) return done();
    metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      secondsSince(request.metricsStartNs),
    );
    done();
  });
}

/** The metrics page: GET `path` answers the registry in Prometheus' text format. */
async function metricsPage(metrics: Metrics): Promise<{ contentType: string; body: string }> {
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}

/** Serves the metrics on the public listener too, at `path` (METRICS_PUBLIC_PATH). */
export function serveMetricsOnPath(app: FastifyInstance, metrics: Metrics, path: string): void {
  app.get(path, async (_request, reply) => {
    const page = await metricsPage(metrics);
    reply.header('content-type', page.contentType).header('cache-control', 'no-store');
    return page.body;
  });
}

/**
 * A listener of its own for the metrics (METRICS_HOST:METRICS_PORT), started with the app and closed with
 * it: GET /metrics, anything else 404. Its bound address is `address()` once the app is ready.
 */
export function serveMetricsOnPort(
  app: FastifyInstance,
  metrics: Metrics,
  host: string,
  port: number,
): { address(): AddressInfo | undefined } {
  let server: Server | undefined;
  app.addHook('onReady', async () => {
    const listening = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
        return;
      }
      metricsPage(metrics).then(
        (page) =>
          res
            .writeHead(200, { 'content-type': page.contentType, 'cache-control': 'no-store' })
            .end(page.body),
        () => res.writeHead(503, { 'content-type': 'text/plain' }).end('The metrics could not be read.\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, host, () => resolve());
    });
    server = listening;
  });
  app.addHook('onClose', async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    // A scraper's keep-alive connection would hold the close open until it timed out.
    closing.closeAllConnections();
    await closed;
  });
  return { address: () => (server?.address() as AddressInfo | null) ?? undefined };
}
