/**
 * The Prometheus metrics as an operator scrapes them: on a listener of their own, never on the public
 * one unless a path is set, counting a real sign-in over the real APIs, and with no personal data or raw
 * path in any label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn } from '../../test/sign-in';
import { margaret } from '../../test/identity-support';
import { openDb } from './db';
import { limitName } from './metrics';

async function scrape(t: TestContext): Promise<{ status: number; type: string; text: string }> {
  const at = t.app.metricsListener?.address();
  if (!at) throw new Error('no metrics listener');
  const res = await fetch(`http://${at.address}:${at.port}/metrics`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The value of one series, e.g. value(text, 'portal_sign_in_outcomes_total{outcome="signed_in"}'). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  let t: TestContext;
  let customerId: string;
  let afterSignIn: string;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_PORT: '0' });
    customerId = (await signIn(t, margaret.email)).customerId;
    afterSignIn = (await scrape(t)).text;
  });
  afterAll(() => t.close());

  it('are served on their own listener, on loopback, in the Prometheus text format', async () => {
    expect(t.app.metricsListener?.address()?.address).toBe('127.0.0.1');
    const page = await scrape(t);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const at = t.app.metricsListener!.address()!;
    expect((await fetch(`http://${at.address}:${at.port}/`)).status).toBe(404);
  });

  it('count one sign-in journey: the password, the code sent and the sign-in', () => {
    expect(value(afterSignIn, 'portal_sign_in_outcomes_total{outcome="signed_in"}')).toBe(1);
    expect(value(afterSignIn, 'portal_sign_in_outcomes_total{outcome="code_sent"}')).toBe(1);
    expect(value(afterSignIn, 'portal_sign_in_outcomes_total{outcome="wrong_password"}')).toBe(0);
    expect(value(afterSignIn, 'portal_sign_in_outcomes_total{outcome="code_refused"}')).toBe(0);
  });

  it('time requests by route pattern and status class, never by raw path', () => {
    expect(
      value(
        afterSignIn,
        'portal_http_request_duration_seconds_count{method="POST",route="/api/v1/authn",status_class="2xx"}',
      ),
    ).toBe(1);
    // The challenge and the code: two answers under the pattern, none under the factor's own path.
    expect(
      value(
        afterSignIn,
        'portal_http_request_duration_seconds_count{method="POST",route="/api/v1/authn/factors/:factorId/verify",status_class="2xx"}',
      ),
    ).toBe(2);
    expect(afterSignIn).not.toMatch(/route="[^"]*\/factors\/(?!:factorId)/);
    // The scrape is served by the metrics listener, not the app: nothing is in flight.
    expect(value(afterSignIn, 'portal_http_requests_in_flight')).toBe(0);
  });

  it('hold no customer id, email address, phone number or client address', () => {
    for (const personal of [customerId, margaret.email, margaret.mobile, margaret.landline, '127.0.0.1']) {
      expect(afterSignIn).not.toContain(personal);
    }
  });

  it('time the database queries and show its pool', () => {
    expect(
      value(afterSignIn, 'portal_db_query_duration_seconds_count{operation="SELECT",outcome="ok"}'),
    ).toBeGreaterThan(0);
    expect(value(afterSignIn, 'portal_db_pool_connections')).toBe(1);
    expect(value(afterSignIn, 'portal_db_pool_waiting_clients')).toBe(0);
  });

  it('include the process metrics: event-loop lag, heap and GC', () => {
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
    ]) {
      expect(afterSignIn).toContain(`# TYPE ${name} `);
    }
  });

  it('count sign-in failures and rate-limit refusals by limit name', async () => {
    const authn = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/authn', payload: { username: margaret.email, password } });
    // A second after the sign-in's own attempt, so only this test's attempts count against the limit.
    t.clock.advance(1000);
    const statuses: number[] = [];
    // Four a second per username; the test clock stands still, so the fifth and sixth are refused.
    for (let i = 0; i < 6; i++) statuses.push((await authn('not-her-password')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const text = (await scrape(t)).text;
    expect(value(text, 'portal_sign_in_outcomes_total{outcome="wrong_password"}')).toBe(4);
    expect(value(text, 'portal_rate_limit_refusals_total{limit="authn"}')).toBe(2);
    expect(
      value(
        text,
        'portal_http_request_duration_seconds_count{method="POST",route="/api/v1/authn",status_class="4xx"}',
      ),
    ).toBe(6);
  });

  it('show the message queue: depth, oldest age and dead letters', async () => {
    const now = t.clock.now();
    // Being sent by an instance whose lease runs for an hour yet: no worker here takes them.
    const insert = (status: string, createdAt: Date) =>
      t.db.query(
        `INSERT INTO message_queue (created_at, channel, recipient, kind, body, status, next_attempt_at, locked_until)
         VALUES ($1, 'email', 'someone@example.co.uk', 'test', 'text', $2, $1, $3)`,
        [createdAt, status, new Date(now.getTime() + 3600_000)],
      );
    await insert('sending', new Date(now.getTime() - 90_000));
    await insert('sending', new Date(now.getTime() - 30_000));
    await insert('dead', new Date(now.getTime() - 600_000));
    // The figures are read at most every few seconds: a fresh app reads them at its first scrape.
    const fresh = await createTestApp({ METRICS_PORT: '0' }, { db: t.db, clock: t.clock });
    try {
      const text = (await scrape(fresh)).text;
      expect(value(text, 'portal_message_queue_depth')).toBe(2);
      expect(value(text, 'portal_message_queue_oldest_age_seconds')).toBe(90);
      expect(value(text, 'portal_message_queue_dead_letters')).toBe(1);
      expect(text).not.toContain('someone@example.co.uk');
    } finally {
      await fresh.close();
      await t.db.query(`DELETE FROM message_queue WHERE kind = 'test'`);
    }
  });

  it("show the audit queue's depth and each batch's size", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audit',
      payload: {
        sessionId: '0b6f8c1e-3d0a-4b9e-9a57-5d1b2f7c9e10',
        eventId: 'Login',
        isSuccess: false,
        failureReason: 'Authentication failure',
        authenticationStatus: 'Unauthenticated',
      },
    });
    expect(res.statusCode).toBeLessThan(300);
    const text = (await scrape(t)).text;
    expect(value(text, 'portal_audit_batch_size_count')).toBe(1);
    expect(value(text, 'portal_audit_queue_depth')).toBe(0);
  });
});

describe.runIf(process.env.DATABASE_URL)('on PostgreSQL', () => {
  it("show the pool's connections", async () => {
    const db = await openDb({ kind: 'postgres', url: process.env.DATABASE_URL!, max: 4 });
    const t = await createTestApp({ METRICS_PORT: '0' }, { db });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const text = (await scrape(t)).text;
      const open = value(text, 'portal_db_pool_connections');
      expect(open).toBeGreaterThanOrEqual(1);
      expect(open).toBeLessThanOrEqual(4);
      // The instance's own workers may hold a connection at the moment of the scrape.
      expect(value(text, 'portal_db_pool_idle_connections')).toBeLessThanOrEqual(open!);
      expect(value(text, 'portal_db_pool_waiting_clients')).toBe(0);
    } finally {
      await t.close();
      await db.close();
    }
  });
});

describe('with Redis unreachable', () => {
  it('count the failed Redis commands', async () => {
    // A port nothing listens on: every counter command fails.
    const t = await createTestApp({ METRICS_PORT: '0', REDIS_URL: 'redis://127.0.0.1:9' });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/authn',
        payload: { username: margaret.email, password: margaret.password },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      const text = (await scrape(t)).text;
      expect(value(text, 'portal_redis_command_errors_total')).toBeGreaterThanOrEqual(1);
      expect(value(text, 'portal_sign_in_outcomes_total{outcome="wrong_password"}')).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('the public listener', () => {
  it('does not serve the metrics by default', async () => {
    const t = await createTestApp();
    try {
      expect(t.app.metricsListener).toBeUndefined();
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.body).not.toContain('portal_http_request_duration_seconds');
      expect(res.headers['content-type']).not.toMatch(/version=0\.0\.4/);
    } finally {
      await t.close();
    }
  });

  it('serves them at METRICS_PUBLIC_PATH when it is set', async () => {
    const t = await createTestApp({ METRICS_PUBLIC_PATH: '/internal/metrics' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/internal/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('# TYPE portal_http_request_duration_seconds histogram');
    } finally {
      await t.close();
    }
  });
});

describe('limit names', () => {
  it('are the fixed part of a counter key, never its id or address', () => {
    expect(limitName('authn:5f2b9c')).toBe('authn');
    expect(limitName('mfa-send-ip:::1')).toBe('mfa-send-ip');
    expect(limitName('eventlog:session:0b6f8c1e')).toBe('eventlog-session');
    expect(limitName('C1000001')).toBe('other');
  });
});
