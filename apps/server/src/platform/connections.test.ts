/**
 * Every request answered, or its connection closed (issue 38 point 7), over real sockets: requests to the
 * token endpoint whose bodies never arrive in full (a Content-Length counted in one charset, the bytes
 * sent in another; a body cut short), two at a time on keep-alive connections beside ordinary token
 * traffic, are each answered in the OAuth envelope at once, and so is the request a client sends after
 * one of them on the same connection. A body that stops arriving is refused once its connection has been
 * silent for the bound; one that keeps arriving, however slowly, is served.
 */
import { Agent, request as httpRequest } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, databases, type TestContext } from '../../test/helpers';
import { integrationEnv, testClient } from '../../test/integration-client';
import { loggerOptions } from '../app';
import type { Db } from './db';

const TOKEN_PATH = '/oauth2/default/v1/token';
/**
 * The bound on an answer: a request not answered by then is one the server left hanging. Each is answered
 * in milliseconds (the issue asks for 2 s); a request left hanging stays so until the 30 s stall limit at
 * least, so 10 s tells the two apart while leaving room for a machine busy with the other test files (2 s
 * was missed once with the load average at 8 on two cores).
 */
const ANSWER_MS = 10_000;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A client's keep-alive connection, written byte for byte: each request is sent once the one before is
 * answered, on the same connection unless the server closed it or said `Connection: close`.
 */
class Connection {
  private socket: net.Socket | undefined;
  private received = Buffer.alloc(0);
  private closed = true;
  private wake: (() => void) | undefined;

  constructor(private readonly port: number) {}

  /** Sends the request; its answer, or what happened instead within `ms`. */
  send(head: string, body: Buffer, ms = ANSWER_MS): Promise<Answer | 'unanswered' | 'closed'> {
    this.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    return this.receive(ms);
  }

  /** Writes bytes (on a new connection when the last one was closed). */
  write(bytes: Buffer) {
    if (this.closed) this.open();
    this.socket!.write(bytes);
  }

  /** The next answer, or what happened instead within `ms`. */
  async receive(ms = ANSWER_MS): Promise<Answer | 'unanswered' | 'closed'> {
    const deadline = Date.now() + ms;
    for (;;) {
      const answer = this.answer();
      if (answer) {
        if (answer.headers['connection'] === 'close') this.close();
        return answer;
      }
      if (this.closed) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0) {
        this.close();
        return 'unanswered';
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close() {
    this.socket?.destroy();
    this.closed = true;
  }

  private open() {
    const socket = net.connect(this.port, '127.0.0.1');
    this.socket = socket;
    this.closed = false;
    this.received = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      if (socket === this.socket) this.received = Buffer.concat([this.received, data]);
      this.wake?.();
    });
    socket.on('close', () => {
      if (socket === this.socket) this.closed = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
  }

  /** The first whole answer received (taken off what was received), if there is one yet. */
  private answer(): Answer | undefined {
    const end = this.received.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine, ...lines] = this.received.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headers['transfer-encoding']) throw new Error('a chunked answer: not expected here');
    const length = Number(headers['content-length'] ?? 0);
    if (this.received.length < end + 4 + length) return undefined;
    const body = this.received.subarray(end + 4, end + 4 + length).toString('utf8');
    this.received = this.received.subarray(end + 4 + length);
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]), headers, body };
  }
}

/** A request's head as a client writes it (keep-alive is HTTP/1.1's default). */
function head(path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`;
}

/** A form-style body sent as JSON, as a generator makes from the token endpoint's fields. */
const formAsJson = JSON.stringify({
  grant_type: 'password',
  client_id: '',
  code: 'Crème brûlée à la façon de Noël. '.repeat(20),
  code_verifier: 'naïve-café-verifier',
});

interface BadRequest {
  name: string;
  type: string;
  sent: Buffer;
  /** The Content-Length the client declares. */
  declared: number;
}

/** Each content type reported, with a body whose byte count differs from the one declared. */
const cutShort: BadRequest[] = [
  {
    name: 'JSON:API, counted as UTF-8 and sent as Latin-1',
    type: 'application/vnd.api+json',
    sent: Buffer.from(formAsJson, 'latin1'),
    declared: Buffer.byteLength(formAsJson, 'utf8'),
  },
  {
    name: 'JSON in Latin-1, counted as UTF-8',
    type: 'application/json; charset=latin1',
    sent: Buffer.from(formAsJson, 'latin1'),
    declared: Buffer.byteLength(formAsJson, 'utf8'),
  },
  {
    name: 'JSON said to be UTF-16, counted as UTF-16 and sent as UTF-8',
    type: 'application/json; charset=utf-16',
    sent: Buffer.from(formAsJson, 'utf8'),
    declared: Buffer.byteLength(formAsJson, 'utf16le'),
  },
  {
    name: 'malformed JSON: the body cut off part way',
    type: 'application/json',
    sent: Buffer.from(formAsJson.slice(0, 60), 'utf8'),
    declared: Buffer.byteLength(formAsJson, 'utf8'),
  },
];

/** The same requests with their bodies as declared. */
const wellFramed: BadRequest[] = cutShort.map((bad) => ({
  ...bad,
  name: `${bad.name}, as declared`,
  declared: bad.sent.length,
}));

function expectOAuthRefusal(answer: Answer | 'unanswered' | 'closed', what: string) {
  expect(answer, what).not.toBe('unanswered');
  expect(answer, what).not.toBe('closed');
  const { status, body } = answer as Answer;
  expect(status, `${what}: ${body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(status, what).toBeLessThan(500);
  expect(JSON.parse(body), what).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
}

const basic = `Basic ${Buffer.from(`${testClient.clientId}:${testClient.secret}`).toString('base64')}`;
const clientCredentials = Buffer.from('grant_type=client_credentials&scope=events.read');

/** The app listening on a free port (with Redis too when REDIS_URL is set), its warnings and errors kept. */
async function listening(db: Db) {
  let log = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  const redis: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
  const t = await createTestApp(
    { ...integrationEnv(), ...redis, LOG_LEVEL: 'warn' },
    { db, logger: (config) => ({ ...loggerOptions(config), stream }) },
  );
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  /** The error lines logged so far. */
  const errors = () =>
    log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.level >= 50);
  return { t, port, errors };
}

describe.each(databases())('requests whose bodies never arrive in full, on $name', ({ open }) => {
  let db: Db;
  let t: TestContext;
  let port: number;
  let errors: () => unknown[];

  beforeAll(async () => {
    db = await open();
    ({ t, port, errors } = await listening(db));
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  /** Token requests as a client sends them, on its own keep-alive connections, until told to stop. */
  async function tokenTraffic(until: Promise<unknown>) {
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    let stopped = false;
    const stop = () => (stopped = true);
    until.then(stop, stop);
    const send = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: TOKEN_PATH, method: 'POST', agent, headers },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        // Not what is under test: bounded only so that a hang fails the test rather than times it out.
        req.setTimeout(10_000, () => req.destroy(new Error('token request not answered')));
        req.on('error', reject);
        req.end(body);
      });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const answers: Array<{ status: number; body: string }> = [];
    try {
      while (!stopped) {
        // A client's token, and a portal client's code that is no good (its grant is looked up).
        answers.push(await send({ ...form, authorization: basic }, clientCredentials.toString()));
        answers.push(
          await send(
            form,
            'grant_type=authorization_code&client_id=portal-spa&code=not-a-code&code_verifier=v&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Flogin%2Fcallback',
          ),
        );
      }
    } finally {
      agent.destroy();
    }
    return answers;
  }

  it('answers requests whose bodies never arrive in full, and the next request on their connection, beside other token traffic', async () => {
    /** One client connection: each bad request, then a well-formed one after it on the same connection. */
    const client = async (requests: BadRequest[]) => {
      const connection = new Connection(port);
      const answers: Array<[string, Answer | 'unanswered' | 'closed']> = [];
      for (const bad of requests) {
        const sent = head(TOKEN_PATH, { 'content-type': bad.type, 'content-length': bad.declared });
        answers.push([bad.name, await connection.send(sent, bad.sent)]);
        const next = wellFramed[0]!;
        const nextHead = head(TOKEN_PATH, { 'content-type': next.type, 'content-length': next.declared });
        answers.push([`the request after ${bad.name}`, await connection.send(nextHead, next.sent)]);
      }
      connection.close();
      return answers;
    };
    // Two clients at a time, each with every case, in a different order, while token traffic goes on.
    const bad = Promise.all([
      client([...cutShort, ...wellFramed]),
      client([...wellFramed, ...cutShort].reverse()),
    ]);
    const [answers, traffic] = await Promise.all([bad, tokenTraffic(bad)]);

    for (const [what, answer] of answers.flat()) expectOAuthRefusal(answer, what);
    expect(traffic.length).toBeGreaterThan(0);
    for (const answer of traffic) {
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      if (body['access_token']) expect(answer.status).toBe(200);
      else expect([answer.status, body['error']]).toEqual([400, 'invalid_grant']);
    }
  });

  it('closes the connection of a request answered before its body is all in, and keeps the others', async () => {
    const connection = new Connection(port);
    const short = cutShort[0]!;
    const refused = await connection.send(
      head(TOKEN_PATH, { 'content-type': short.type, 'content-length': short.declared }),
      short.sent,
    );
    expectOAuthRefusal(refused, short.name);
    expect((refused as Answer).headers['connection']).toBe('close');
    // A token request whose body is read before it is answered keeps its connection for the next one.
    const tokenHead = head(TOKEN_PATH, {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic,
      'content-length': clientCredentials.length,
    });
    for (const n of [1, 2]) {
      const answer = await connection.send(tokenHead, clientCredentials);
      expect(answer, `token request ${n}`).toMatchObject({
        status: 200,
        headers: { connection: 'keep-alive' },
      });
    }
    connection.close();
  });

  it('logs no error for any of it', () => {
    expect(errors()).toEqual([]);
  });
});

describe('a body that stops arriving', () => {
  // The bound, shortened here from BODY_STALL_MS (the server's socket inactivity limit, per connection).
  const STALL_MS = 1000;
  let db: Db;
  let t: TestContext;
  let port: number;
  let errors: () => unknown[];

  beforeAll(async () => {
    db = await createTestDb();
    ({ t, port, errors } = await listening(db));
    t.app.server.setTimeout(STALL_MS);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  /** Sends the head and part of the body, then nothing; what the server does, within the bound and 2 s. */
  async function stall(path: string, headers: Record<string, string>, body: string) {
    const connection = new Connection(port);
    const bytes = Buffer.from(body);
    const sent = head(path, { ...headers, 'content-length': bytes.length + 100 });
    const answer = await connection.send(sent, bytes, STALL_MS + ANSWER_MS);
    connection.close();
    return answer;
  }

  it('is refused 408 in its path’s envelope once its connection has been silent for the bound', async () => {
    const token = await stall(
      TOKEN_PATH,
      { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      'grant_type=client_credentials&scope=',
    );
    expectOAuthRefusal(token, 'a token request whose form stops arriving');
    expect((token as Answer).status).toBe(408);
    expect((token as Answer).headers['connection']).toBe('close');

    const audit = await stall(
      '/api/v1/audit',
      { 'content-type': 'application/json', 'x-correlationid': 'stalled-body-1' },
      '{"sessionId":"s1","eventId":',
    );
    expect(audit).toMatchObject({ status: 408, headers: { 'x-correlationid': 'stalled-body-1' } });
    expect(JSON.parse((audit as Answer).body)).toEqual({
      code: 'REQUEST_TIMEOUT',
      message: expect.any(String),
      correlationId: 'stalled-body-1',
    });
  });

  it('is served while it keeps arriving, however long it takes in all', async () => {
    const connection = new Connection(port);
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic,
      'content-length': clientCredentials.length,
    };
    // The head and the first bytes, then two bytes every tenth of a second: longer than the bound in
    // all, never silent for it.
    connection.write(Buffer.from(head(TOKEN_PATH, headers), 'latin1'));
    const received = connection.receive(10_000);
    for (let at = 0; at < clientCredentials.length; at += 2) {
      connection.write(clientCredentials.subarray(at, at + 2));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = await received;
    connection.close();
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse((answer as Answer).body)).toMatchObject({ access_token: expect.any(String) });
  });

  it('logs no error for any of it', () => {
    expect(errors()).toEqual([]);
  });
});
