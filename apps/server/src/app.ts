import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { mountPrefix } from './config';
import { systemClock, type Clock } from './platform/clock';
import type { Db } from './platform/db';
import { installDevOutbox } from './platform/dev-outbox';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  HttpError,
  installErrorHandler,
  sendError,
} from './platform/errors';
import { DATABASE_RETRY_AFTER_SECONDS } from './platform/db';
import { installTokenGuard } from './platform/auth-guard';
import { counterStore, installCounterStore } from './platform/counters';
import { BODY_STALL_MS, httpServerOptions } from './platform/connections';
import { installHousekeeping, platformHousekeeping } from './platform/housekeeping';
import { installInputGuard } from './platform/input-guard';
import { serializeRequest } from './platform/logging';
import { instrumentDb } from './platform/instrumented-db';
import { installHttpMetrics, metricsOf, serveMetricsOnPath, serveMetricsOnPort } from './platform/metrics';
import { installMessageWorker } from './platform/notifier';
import { messageQueueStats } from './platform/notifier/queue';
import { installRequestContext } from './platform/request-context';
import { installSecurity } from './platform/security';
import { captureSql, installSqlCapture } from './platform/sql-capture';
import { installDrain } from './platform/shutdown';
import { installOpenApi } from './platform/openapi';
import { recordRoutes, servedCalls } from './platform/route';
import { installSpa } from './platform/spa';
import { installRequestTracing } from './platform/tracing';
import { serviceOf, type ModuleContext } from './platform/module';
import type { Services } from './platform/services';
import { createServices, moduleContext, moduleHousekeeping, modules, revocations } from './modules';
import { installPolicySystemStandIn } from './modules/policy';

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Log destination override (tests pass false). */
  logger?: boolean | object;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics listener (METRICS_PORT), when there is one: its address once the app is ready. */
    metricsListener: { address(): AddressInfo | undefined } | undefined;
  }
}

/**
 * The server's logging: JSON lines at the configured level, with credentials redacted and only the path
 * of each request, ids and tokens in it redacted too (platform/logging.ts). Tests add their own stream.
 */
export function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.passCode',
        '*.token',
        '*.sessionToken',
        '*.stateToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: serializeRequest,
    },
  };
}

/** Builds the whole portal: platform plugins, then each enabled service module under its base URL path. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: deps.logger ?? (config.logLevel === 'silent' ? false : loggerOptions(config)),
    // Fastify 5 no longer takes a bare hop count (it fails closed); the same rule as a function: believe
    // the entries written by the `n` nearest proxies. Only for a portal reachable solely through them.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 500 },
    // Every request answered or its connection closed (platform/connections.ts): a request answered
    // before its body is all in closes its connection, and a body that stops arriving for BODY_STALL_MS
    // is refused. No bound on a whole request's time (requestTimeout stays off): a bulk load is one
    // request as long as its file.
    http: httpServerOptions(config),
    connectionTimeout: BODY_STALL_MS,
    // Bad URL encoding, over-long parameters and Node's own refusals in our envelopes, not Fastify's.
    frameworkErrors: frameworkErrorHandler(config),
    clientErrorHandler: clientErrorHandler(config),
    // A graceful stop (server.ts) drains first, answering `Connection: close`; when it then closes, idle
    // keep-alive sockets are closed at once and a request that still arrives on a busy one is served
    // (with `Connection: close`), not refused with Fastify's bare 503.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
  });

  const services = {} as Services;
  // One object per app: the platform keeps what it holds once per app under it (see ModuleContext).
  const ctx: ModuleContext = { config, db, clock, services, instance: {} };
  // Every module's queries timed (and traced when tracing is on).
  const metrics = metricsOf(ctx);
  ctx.db = instrumentDb(db, metrics);
  // Benchmarks only: the statements of requests that ask for it, for bench:api's bare peer.
  if (config.sqlCaptureFile) ctx.db = captureSql(ctx.db);
  metrics.watchMessageQueue(() => messageQueueStats(db, clock.now()));
  app.decorate('ctx', ctx);
  Object.assign(services, await createServices(ctx));

  // Before anything registers a route: the served-equals-documented test reads every route.
  recordRoutes(app);
  installRequestContext(app);
  if (config.sqlCaptureFile) installSqlCapture(app, config.sqlCaptureFile);
  installDrain(app);
  installRequestTracing(app);
  installHttpMetrics(app, metrics);
  const { port: metricsPort, host: metricsHost, publicPath: metricsPath } = config.metrics;
  if (metricsPort !== undefined || metricsPath) metrics.collectProcessMetrics();
  app.decorate(
    'metricsListener',
    metricsPort === undefined ? undefined : serveMetricsOnPort(app, metrics, metricsHost, metricsPort),
  );
  if (metricsPath) serveMetricsOnPath(app, metrics, metricsPath);
  installErrorHandler(app);
  installInputGuard(app, config);
  await installSecurity(app, config);
  installDevOutbox(app, ctx);
  installMessageWorker(app, ctx);
  installCounterStore(app, ctx);
  installHousekeeping(app, ctx, [...platformHousekeeping, ...moduleHousekeeping()]);
  await installTokenGuard(app, ctx, revocations(ctx));

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    if (app.draining) {
      reply.header('Retry-After', '1');
      return sendError(request, reply, 503, 'NOT_READY', 'This instance is shutting down.');
    }
    try {
      await ctx.db.query('SELECT 1');
    } catch (error) {
      request.log.warn({ err: error }, 'not ready: the database is unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(request, reply, 503, 'NOT_READY', 'The database is not reachable.');
    }
    // Redis, when the counters are there: within its command timeout even when it does not answer.
    const counters = await counterStore(ctx);
    try {
      await counters.ping();
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      reply.headers(error.headers ?? {});
      return sendError(request, reply, 503, 'NOT_READY', 'Redis is not reachable.');
    }
    return { status: 'ready', database: db.kind, ...(counters.kind === 'redis' ? { redis: 'ready' } : {}) };
  });

  for (const mod of modules) {
    const service = serviceOf(mod);
    if (!mod.routes || !config.modules.has(service)) continue;
    // Each module with a context of its own: the services it declares, and no others.
    const view = moduleContext(mod, ctx);
    await app.register(async (scoped) => mod.routes!(scoped, view), {
      prefix: mountPrefix(config.baseUrls[service]),
    });
  }

  await installOpenApi(app, config, () => servedCalls(app));
  await installPolicySystemStandIn(app, config);
  await installSpa(app, config);
  return app;
}
