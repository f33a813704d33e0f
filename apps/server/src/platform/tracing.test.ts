/**
 * OpenTelemetry traces of one sign-in, exported to memory: a span per request named by its route
 * pattern, the database queries (and Redis commands, when REDIS_URL is set) as its children, the text
 * gateway's call as a span of its own, and the trace id in every log line of the request. Without
 * tracing started, nothing of it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../app';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn } from '../../test/sign-in';
import { margaret } from '../../test/identity-support';
import { startTracing, type Tracing } from './tracing';

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; traceId?: string };

/** An app whose log lines are collected, as JSON objects. */
async function appWithLog(env: Record<string, string> = {}): Promise<{ t: TestContext; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const t = await createTestApp(
    { LOG_LEVEL: 'info', ...env },
    { logger: (config) => ({ ...loggerOptions(config), stream }) },
  );
  return { t, lines };
}

const redis: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};

/** The request span a span belongs to (itself, its parent, ...), if any. */
function requestOf(span: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  let at: ReadableSpan | undefined = span;
  while (at && at.kind !== SpanKind.SERVER) at = byId.get(at.parentSpanContext?.spanId ?? '');
  return at;
}

describe('without tracing', () => {
  let t: TestContext;
  let lines: LogLine[];
  beforeAll(async () => {
    ({ t, lines } = await appWithLog());
  });
  afterAll(() => t.close());

  it('writes no trace id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(lines.some((l) => l.msg === 'request completed')).toBe(true);
    expect(lines.filter((l) => 'traceId' in l)).toEqual([]);
  });
});

describe('traces', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  beforeAll(async () => {
    tracing = await startTracing({ exporter });
  });
  afterAll(() => tracing.stop());

  describe('of one sign-in', () => {
    let t: TestContext;
    let lines: LogLine[];
    let spans: ReadableSpan[];
    beforeAll(async () => {
      ({ t, lines } = await appWithLog(redis));
      exporter.reset();
      await signIn(t, margaret.email);
      spans = exporter.getFinishedSpans().slice();
    });
    afterAll(() => t.close());

    const requests = () => spans.filter((s) => s.kind === SpanKind.SERVER);
    const authn = () => requests().find((s) => s.name === 'POST /api/v1/authn')!;

    it('have a span for each request, named by its route pattern', () => {
      const names = requests().map((s) => s.name);
      expect(names).toContain('POST /api/v1/authn');
      expect(names.filter((n) => n === 'POST /api/v1/authn/factors/:factorId/verify')).toHaveLength(2);
      expect(names.filter((n) => /\/factors\/(?!:factorId)/.test(n))).toEqual([]);
      expect(authn().attributes['http.route']).toBe('/api/v1/authn');
      expect(authn().attributes['http.response.status_code']).toBe(200);
    });

    it("have the database queries of a request as its children, in the request's trace", () => {
      const queries = spans.filter(
        (s) => s.attributes['db.system.name'] === 'postgresql' && requestOf(s, spans) === authn(),
      );
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.some((q) => q.parentSpanContext?.spanId === authn().spanContext().spanId)).toBe(true);
      expect(queries.some((q) => q.attributes['db.operation.name'] === 'SELECT')).toBe(true);
      for (const q of queries) expect(q.spanContext().traceId).toBe(authn().spanContext().traceId);
      // Each verify's queries under its own request, not another's.
      for (const verify of requests().filter((s) => s.name.includes('/verify'))) {
        expect(spans.some((s) => s.attributes['db.system.name'] && requestOf(s, spans) === verify)).toBe(
          true,
        );
      }
    });

    it.runIf(process.env.REDIS_URL)('have the Redis commands of a request as its children', () => {
      const commands = spans.filter((s) => s.attributes['db.system.name'] === 'redis');
      expect(commands.some((c) => requestOf(c, spans) === authn())).toBe(true);
      expect(commands.map((c) => c.attributes['portal.limit'])).toContain('authn');
    });

    it('carry the trace id in every log line of the request', () => {
      const incoming = lines.find(
        (l) =>
          l.msg === 'incoming request' &&
          (l['req'] as { path?: string } | undefined)?.path === '/api/v1/authn',
      );
      expect(incoming?.reqId).toBeDefined();
      const own = lines.filter((l) => l.reqId === incoming!.reqId);
      expect(own.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
      for (const line of own) expect(line.traceId).toBe(authn().spanContext().traceId);
      // And every other request's lines carry their own.
      const traceIds = new Set(requests().map((s) => s.spanContext().traceId));
      for (const line of lines.filter((l) => l.reqId)) expect(traceIds.has(line.traceId!)).toBe(true);
    });

    it('hold no personal data in any attribute', () => {
      const attributes = JSON.stringify(spans.map((s) => s.attributes));
      for (const personal of [margaret.email, margaret.mobile, margaret.customerId]) {
        expect(attributes).not.toContain(personal);
      }
    });
  });

  describe('of a code sent through the text gateway', () => {
    let gateway: Server;
    let t: TestContext;
    beforeAll(async () => {
      gateway = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(202).end());
      });
      await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
      const { port } = gateway.address() as AddressInfo;
      t = await createTestApp({
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/send`,
      });
    });
    afterAll(async () => {
      await t.close();
      await new Promise((resolve) => gateway.close(resolve));
    });

    it("have the gateway's call as a child of the request that sent it", async () => {
      const authn = await t.app.inject({
        method: 'POST',
        url: '/api/v1/authn',
        payload: { username: margaret.email, password: margaret.password },
      });
      const { stateToken, _embedded } = authn.json<{
        stateToken: string;
        _embedded: { factors: Array<{ id: string; factorType: string }> };
      }>();
      const factor = _embedded.factors.find((f) => f.factorType === 'sms')!;
      exporter.reset();
      const challenge = await t.app.inject({
        method: 'POST',
        url: `/api/v1/authn/factors/${factor.id}/verify`,
        payload: { stateToken },
      });
      expect(challenge.statusCode).toBe(200);
      const spans = exporter.getFinishedSpans();
      const deliver = spans.find((s) => s.name === 'sms-webhook deliver');
      expect(deliver?.kind).toBe(SpanKind.CLIENT);
      expect(requestOf(deliver!, spans)?.name).toBe('POST /api/v1/authn/factors/:factorId/verify');
      expect(deliver!.attributes).toEqual({
        'portal.message.channel': 'sms',
        'portal.message.kind': 'mfa-code',
      });
    });
  });
});
