/**
 * A graceful stop of the real process (SIGTERM, as a service manager or a rolling deploy sends it): the
 * instance says it is not ready at once, keeps serving through the drain with `Connection: close`, then
 * stops listening, finishes the request in flight with its answer, lets the message worker finish the
 * message it is sending, and exits 0.
 */
import { createServer as createHttpServer, request as httpRequest, type ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { david, margaret } from '../test/identity-support';
import { smtpReceiver } from '../test/smtp-receiver';
import {
  freePort,
  logLines,
  preparedDataDir,
  startServer,
  waitForReady,
  type Run,
} from '../test/server-process';

/** A text gateway that holds every send until released. */
function heldGateway() {
  const held: ServerResponse[] = [];
  let released = false;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (released) res.writeHead(202).end('{}');
      else held.push(res);
    });
  });
  return {
    server,
    received: () => held.length,
    release() {
      released = true;
      for (const res of held.splice(0)) res.writeHead(202).end('{}');
    },
  };
}

/** A mail server that takes each message but holds its "queued" answer until released. */
function heldMailServer() {
  const held: Array<() => void> = [];
  let released = false;
  let messages = 0;
  const server = smtpReceiver((_transcript, reply) => {
    messages += 1;
    const answer = () => reply('250 2.0.0 queued');
    if (released) answer();
    else held.push(answer);
  });
  return {
    server,
    messages: () => messages,
    release() {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A GET on a connection of its own: the status and the Connection header as the server wrote it. */
function get(base: string, url: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, { agent: false, headers: { Connection: 'keep-alive' } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function postJson(base: string, url: string, body: unknown): Promise<Response> {
  return fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('server process: a graceful stop on SIGTERM', () => {
  const gateway = heldGateway();
  const mail = heldMailServer();
  let dataDir: string;
  let base: string;
  let run: Run;
  beforeAll(async () => {
    const [gatewayPort, mailPort] = [await listen(gateway.server), await listen(mail.server)];
    dataDir = await preparedDataDir();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    run = startServer({
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-dist'),
      SHUTDOWN_DRAIN_SECONDS: '2',
      // The code request below stays in flight past the drain: the gateway answers when the test says.
      SEND_NOW_TIMEOUT_MS: '60000',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: `http://127.0.0.1:${gatewayPort}/send`,
      SMTP_URL: `smtp://127.0.0.1:${mailPort}`,
    });
    await waitForReady(base, run);
  }, 120_000);
  afterAll(async () => {
    gateway.release();
    mail.release();
    if (run?.child.exitCode === null) run.child.kill('SIGKILL');
    gateway.server.close();
    mail.server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('drains, finishes the request and the message in flight, then exits 0', async () => {
    // In flight at the signal: a sign-in code being sent (the answer waits for the gateway) ...
    const signIn = await postJson(base, '/api/v1/authn', {
      username: margaret.email,
      password: margaret.password,
    });
    const { stateToken, _embedded } = (await signIn.json()) as {
      stateToken: string;
      _embedded: { factors: Array<{ id: string; factorType: string }> };
    };
    const sms = _embedded.factors.find((f) => f.factorType === 'sms')!;
    let slowStatus: number | undefined;
    const slow = postJson(base, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken }).then((res) => {
      slowStatus = res.status;
      return res;
    });
    slow.catch(() => undefined); // awaited below; a failure must fail the test there, not as unhandled
    await until('the code to reach the gateway', () => gateway.received() === 1);
    // ... and an email the message worker is sending (queued by the request, sent after its answer).
    const reset = await postJson(base, '/Registration/resetPassword', { email: margaret.email });
    expect(reset.status).toBe(200);
    await until('the email to reach the mail server', () => mail.messages() === 1);

    run.child.kill('SIGTERM');

    // Not ready first, while still listening: the load balancer takes the instance out.
    await until('/readyz to answer 503', async () => (await get(base, '/readyz')).status !== 200);
    const ready = await get(base, '/readyz');
    expect(ready).toEqual({ status: 503, connection: 'close' });

    // Everything else is still answered, each answer closing its connection so clients move on.
    expect(await get(base, '/healthz')).toEqual({ status: 200, connection: 'close' });
    expect(await get(base, '/app-settings.json')).toEqual({ status: 200, connection: 'close' });
    const other = await postJson(base, '/api/v1/authn', { username: david.email, password: david.password });
    expect(other.status).toBe(200);
    expect(other.headers.get('connection')).toBe('close');

    // After the drain the listener closes while the slow request is still waiting for the gateway.
    await until(
      'the listener to close',
      () =>
        get(base, '/healthz').then(
          () => false,
          (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
        ),
      30_000,
    );
    expect(slowStatus).toBeUndefined();
    expect(run.child.exitCode).toBeNull();

    // The request in flight gets its answer; the worker finishes its message; then the process exits.
    gateway.release();
    expect((await slow).status).toBe(200);
    expect(run.child.exitCode).toBeNull();
    mail.release();
    expect(await run.exited).toBe(0);

    const messages = logLines(run).map((l) => l['msg']);
    expect(messages).toContain('shutting down: not ready, serving until the drain ends');
    expect(messages).toContain('stopped: requests finished, workers stopped, database closed');
    const pg = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const { rows } = await pg.query<{ status: string }>(
        `SELECT status FROM message_queue WHERE kind = 'password-reset'`,
      );
      expect(rows).toEqual([{ status: 'sent' }]);
    } finally {
      await pg.close();
    }
  }, 90_000);
});

describe('server process: a second signal during the drain', () => {
  it('ends the drain early and stops gracefully', async () => {
    const dataDir = await preparedDataDir();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const run = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-dist'),
      SHUTDOWN_DRAIN_SECONDS: '300',
    });
    try {
      await waitForReady(base, run);
      run.child.kill('SIGTERM');
      await until('/readyz to answer 503', async () => (await get(base, '/readyz')).status === 503);
      // More than a second later: not the same signal reaching the process twice.
      await new Promise((r) => setTimeout(r, 1100));
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(logLines(run).map((l) => l['msg'])).toContain('shutting down: drain ended early');
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
