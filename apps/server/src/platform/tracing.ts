import type { IncomingMessage } from 'node:http';
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance } from 'fastify';

/*
 * OpenTelemetry traces (issue 24, decision 022): off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Only the
 * small API package is loaded here; the SDK and the exporter are imported when tracing starts, so a
 * portal without tracing neither loads them nor makes a span: every helper below checks `enabled` first.
 *
 * Spans: each request (SERVER, named by method and route pattern), each database query and transaction,
 * each Redis counter command, each outbound message (SMTP, the text/voice gateway) and webhook (CLIENT).
 * Attributes never carry personal data: no recipients, no parameters, no error messages (which can
 * quote a value), only error classes and codes.
 */

let enabled = false;

const tracer = () => trace.getTracer('customer-portal');

export interface Tracing {
  /** Sends the spans not yet exported and stops tracing. */
  stop(): Promise<void>;
}

/**
 * A package's exports: these are CommonJS packages, and in the server bundle (scripts/build-server.mjs)
 * a dynamic import of one may hand them over under `default` instead of by name.
 */
async function load<T extends object>(loading: Promise<T>, name: keyof T): Promise<T> {
  const loaded = await loading;
  return loaded[name] !== undefined ? loaded : (loaded as { default: T }).default;
}

/**
 * Starts tracing for the process: OTLP over HTTP to the endpoint the standard OTEL_EXPORTER_OTLP_*
 * variables name (the exporter reads them), or to `exporter` (tests: an in-memory one, exported as each
 * span ends). The service is `customer-portal` unless OTEL_SERVICE_NAME says otherwise.
 */
export async function startTracing(options: { exporter?: SpanExporter } = {}): Promise<Tracing> {
  const [node, resources] = await Promise.all([
    load(import('@opentelemetry/sdk-trace-node'), 'NodeTracerProvider'),
    load(import('@opentelemetry/resources'), 'resourceFromAttributes'),
  ]);
  const exporter =
    options.exporter ??
    new (
      await load(import('@opentelemetry/exporter-trace-otlp-http'), 'OTLPTraceExporter')
    ).OTLPTraceExporter();
  const provider = new node.NodeTracerProvider({
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ 'service.name': 'customer-portal' }))
      .merge(resources.detectResources({ detectors: [resources.envDetector] })),
    spanProcessors: [
      options.exporter ? new node.SimpleSpanProcessor(exporter) : new node.BatchSpanProcessor(exporter),
    ],
  });
  // The AsyncLocalStorage context manager and the W3C traceparent propagator, for the whole process.
  provider.register();
  enabled = true;
  return {
    async stop() {
      enabled = false;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** What may be said of a failure: its class and code, never its message. */
function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute(
    'error.type',
    typeof code === 'string' ? code : error instanceof Error ? error.name : 'error',
  );
}

/** Runs `fn` in a span of its own (a child of the active one) when tracing is on; as it is otherwise. */
export function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  fn: () => Promise<T>,
): Promise<T> {
  if (!enabled) return fn();
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };

const requestSpans = new WeakMap<IncomingMessage, Span>();

/**
 * The span of a request, started the first time it is asked for: by the request's logger (before
 * Fastify's "incoming request" line) or its first hook. A caller's traceparent header makes it a child
 * of the caller's span.
 */
function requestSpan(raw: IncomingMessage): Span | undefined {
  if (!enabled) return undefined;
  let span = requestSpans.get(raw);
  if (!span) {
    const parent = propagation.extract(ROOT_CONTEXT, raw.headers);
    span = tracer().startSpan(
      raw.method ?? 'request',
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': raw.method ?? '' } },
      parent,
    );
    requestSpans.set(raw, span);
  }
  return span;
}

/** The trace id of a request, for every log line of it; nothing when tracing is off. */
export function traceFields(raw: IncomingMessage): { traceId?: string } {
  const span = requestSpan(raw);
  if (!span) return {};
  const { traceId } = span.spanContext();
  return isSpanContextValid(span.spanContext()) ? { traceId } : {};
}

/**
 * A span for every request, named by the route pattern that serves it (`POST /api/v1/authn`), with the
 * request's work (hooks, handler, the queries it makes) as its children; it ends when the response is
 * closed. Installed before any route; does nothing when tracing is off.
 */
export function installRequestTracing(app: FastifyInstance): void {
  if (!enabled) return;
  app.addHook('onRequest', (request, reply, done) => {
    const span = requestSpan(request.raw);
    if (!span) return done();
    const route = request.routeOptions.url;
    span.updateName(`${request.method} ${route ?? 'unmatched'}`);
    if (route) span.setAttribute('http.route', route);
    reply.raw.once('close', () => {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(context.active(), span), done);
  });
  // A body is read in the socket's async context, not the first hook's: the rest of the request (hooks
  // after parsing, the handler) enters the span again.
  app.addHook('preValidation', (request, _reply, done) => {
    const span = requestSpans.get(request.raw);
    if (!span) return done();
    context.with(trace.setSpan(context.active(), span), done);
  });
}
