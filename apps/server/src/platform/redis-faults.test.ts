/**
 * Redis (the rate-limit counters, REDIS_URL) stopped (connections refused) or frozen (connections
 * accepted, never answered): calls that need a counter answer 503 with Retry-After in their envelope
 * within a second (limits never fail open), calls that need none keep working, /readyz says Redis is
 * unavailable, no error goes unhandled, and the app counts again without a restart when Redis comes
 * back. The machine's Redis is never stopped: the app reaches it through a TCP proxy started here,
 * which can refuse, freeze and resume. Skipped when no Redis answers on REDIS_URL (default 6379).
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { loggerOptions } from '../app';
import { FaultyProxy, timed, untilReady } from '../../test/faulty-proxy';
import { createTestApp, type TestContext } from '../../test/helpers';
import { signIn, type SignedIn } from '../../test/sign-in';

const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
/**
 * The bound is 1 s (Redis's command timeout is 500 ms); the assertion allows 1.5 s because the
 * time measured here also holds the rest of each request, four of them made at once, on a shared
 * two-core machine that other test runs keep busy. The figures printed at the end are the measured ones.
 */
const ANSWER_WITHIN_MS = 1500;
/** Reconnection is retried at most 1 s apart. */
const RECOVER_WITHIN_MS = 3000;
/** Sent as the URL's password (any password opens a Redis whose default user has none): never logged. */
const PASSWORD = 'redis-password-never-logged';

/** Whether a Redis answers PING there. */
async function redisAnswers(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port || 6379), url.hostname);
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    // A Redis wanting a password says NOAUTH: it is there all the same.
    socket.on('data', (chunk: Buffer) => done(/^(\+PONG|-NOAUTH)/.test(chunk.toString())));
  });
}

const MARGARET = 'margaret.thompson@example.co.uk';

describe.skipIf(!(await redisAnswers(redisUrl)))('the app when Redis stops or freezes', () => {
  let proxy: FaultyProxy;
  let t: TestContext;
  let margaret: SignedIn;
  let log = '';
  const figures: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);
  /** Where ioredis reports an error event nobody listens to. */
  let consoleError: MockInstance<typeof console.error>;

  beforeAll(async () => {
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
    consoleError = vi.spyOn(console, 'error');
    proxy = new FaultyProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    await proxy.start();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    t = await createTestApp(
      {
        REDIS_URL: `redis://${redisUrl.username || 'default'}:${PASSWORD}@127.0.0.1:${proxy.port}`,
        LOG_LEVEL: 'info',
      },
      { logger: (config) => ({ ...loggerOptions(config), stream }) },
    );
    margaret = await signIn(t, MARGARET);
  }, 60_000);
  afterAll(async () => {
    // The figures the issue asks for, in the test output.
    console.warn(`[redis faults] ${figures.join('; ')}`);
    process.off('uncaughtException', onUnhandled);
    process.off('unhandledRejection', onUnhandled);
    consoleError.mockRestore();
    proxy?.resume();
    await t?.close();
    await proxy?.stop();
  });

  const wrongPassword = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/authn',
      payload: { username: 'nobody@example.co.uk', password: 'Not-the-password-1' },
    });

  /** Polls /readyz until it answers 200; the time from now. */
  const recovery = () => untilReady(t.app);

  /** What clients see during the fault: 503 where a counter is needed, the rest served as usual. */
  const expectUnavailable = async (label: string) => {
    const [ready, signInAttempt, forgotten, audit] = await Promise.all([
      timed(() => t.app.inject({ method: 'GET', url: '/readyz' })),
      timed(wrongPassword),
      timed(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/authn/recovery/password',
          payload: { username: MARGARET, factorType: 'EMAIL' },
        }),
      ),
      // The SPA's audit events count against limits too (group commit): the project's envelope.
      timed(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/audit',
          payload: {
            sessionId: 'redis-fault',
            eventId: 'login.failure',
            authenticationStatus: 'Unauthenticated',
          },
        }),
      ),
    ]);
    expect(ready.value.statusCode).toBe(503);
    expect(ready.value.json()).toMatchObject({ code: 'NOT_READY', message: 'Redis is not reachable.' });
    for (const okta of [signInAttempt, forgotten]) {
      expect(okta.value.statusCode).toBe(503);
      expect(okta.value.json()).toMatchObject({ errorCode: 'E0000009', errorId: expect.any(String) });
    }
    expect(audit.value.statusCode).toBe(503);
    expect(audit.value.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      correlationId: expect.any(String),
    });
    for (const res of [ready, signInAttempt, forgotten, audit]) {
      expect(res.value.headers['retry-after']).toBe('5');
      expect(res.ms).toBeLessThan(ANSWER_WITHIN_MS);
    }

    // Calls that take no counter are served as usual.
    const [health, content, policies] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/healthz' }),
      t.app.inject({ method: 'GET', url: '/api/v1/content/getbytype?type=SiteSettings' }),
      t.app.inject({
        method: 'GET',
        url: `/api/v1/policy/${margaret.customerId}`,
        headers: { authorization: margaret.authorization },
      }),
    ]);
    expect(health.statusCode).toBe(200);
    expect(content.statusCode).toBe(200);
    expect(policies.statusCode).toBe(200);

    figures.push(
      `${label}: 503 in ${Math.max(ready.ms, signInAttempt.ms, forgotten.ms, audit.ms)} ms (readyz ${ready.ms} ms, sign-in ${signInAttempt.ms} ms)`,
    );
  };

  const expectServing = async () => {
    expect((await wrongPassword()).statusCode).toBe(401);
    const forgotten = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authn/recovery/password',
      payload: { username: MARGARET, factorType: 'EMAIL' },
    });
    expect(forgotten.statusCode).toBe(200);
  };

  it('serves normally through the proxy', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'pglite', redis: 'ready' });
    await expectServing();
  });

  it('stopped: 503 with Retry-After within a second, and counting again without a restart', async () => {
    await proxy.stop();
    await expectUnavailable('stopped');
    await proxy.start();
    const back = await recovery();
    figures.push(`stopped: recovered ${back.ms} ms after Redis came back`);
    expect(back.ms).toBeLessThan(RECOVER_WITHIN_MS);
    await expectServing();
  }, 30_000);

  it('frozen: 503 with Retry-After within a second, and counting again without a restart', async () => {
    proxy.freeze();
    await expectUnavailable('frozen');
    // Still bounded 2.5 s on, whether the client still waits on the frozen connection or has dropped it
    // (after 2 s without an answer) and is making a new one.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await expectUnavailable('frozen 2.5 s on');
    proxy.resume();
    const back = await recovery();
    figures.push(`frozen: recovered ${back.ms} ms after Redis came back`);
    expect(back.ms).toBeLessThan(RECOVER_WITHIN_MS);
    await expectServing();
  }, 30_000);

  it('handled every error, and logged each outage once without the password', () => {
    expect(unhandled).toEqual([]);
    expect(consoleError.mock.calls.flat().join(' ')).not.toContain('Unhandled error event');
    expect(log).not.toContain(PASSWORD);
    const lines = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });
    const outages = lines.filter((line) => line.msg.startsWith('Redis is unreachable'));
    expect(outages).toHaveLength(2);
    expect(outages.every((line) => line.level === 40)).toBe(true);
    expect(lines.filter((line) => line.msg === 'Redis is reachable again')).toHaveLength(2);
    // No 500s, nor errors logged as unexpected.
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
