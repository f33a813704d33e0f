import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { smtpReceiver } from '../../test/smtp-receiver';
import { latestCode, margaret, outbox, post, signIn } from '../../test/identity-support';
import {
  DeliveryError,
  maskRecipient,
  messageWorker,
  normaliseRecipient,
  notifier,
  SEND_NOW_RETRY_AFTER_SECONDS,
  type NotifyLog,
} from './notifier';

function captureLog() {
  const lines: string[] = [];
  const log: NotifyLog = {
    info: (obj, msg) => lines.push(JSON.stringify({ ...obj, msg })),
    error: (obj, msg) => lines.push(JSON.stringify({ ...obj, msg })),
  };
  return { lines, log };
}

describe('notifier', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('normalises and masks recipients', () => {
    expect(normaliseRecipient('+44 7700 900123')).toBe('07700900123');
    expect(normaliseRecipient('07700 900123')).toBe('07700900123');
    expect(normaliseRecipient(' Margaret@Example.co.uk ')).toBe('margaret@example.co.uk');
    expect(maskRecipient('07700900123')).toBe('***123');
    expect(maskRecipient('margaret@example.co.uk')).toBe('m***@example.co.uk');
  });

  it('records messages in the outbox and logs them masked, never the text', async () => {
    t = await createTestApp();
    const { lines, log } = captureLog();
    await notifier(t.app.ctx).sendNow(
      { channel: 'sms', to: '+44 7700 900999', kind: 'mfa-code', text: 'Your security code is 482913.' },
      log,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('***999');
    expect(lines[0]).not.toContain('482913');
    expect(lines[0]).not.toContain('7700900999');
    const [message] = await outbox(t.app, '07700 900999');
    expect(message).toMatchObject({
      channel: 'sms',
      to: '07700900999',
      kind: 'mfa-code',
      body: 'Your security code is 482913.',
    });
  });

  it('serves the dev outbox as JSON and as an escaped page, uncached', async () => {
    t = await createTestApp();
    await notifier(t.app.ctx).enqueue({
      channel: 'email',
      to: 'someone@example.org',
      kind: 'test',
      subject: '<b>Hello</b>',
      text: '<script>alert(1)</script>',
    });
    const api = await t.app.inject({ method: 'GET', url: '/dev/outbox/api?to=Someone@Example.org' });
    expect(api.statusCode).toBe(200);
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.json().messages[0]).toMatchObject({
      subject: '<b>Hello</b>',
      body: '<script>alert(1)</script>',
    });
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox?to=someone@example.org' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('<label for="to">');
    const bad = await t.app.inject({ method: 'GET', url: '/dev/outbox/api?limit=5000' });
    expect(bad.statusCode).toBe(400);
  });

  it("keeps an email's HTML part in the outbox and shows it on the page in a sandboxed frame", async () => {
    t = await createTestApp();
    await notifier(t.app.ctx).enqueue({
      channel: 'email',
      to: 'someone@example.org',
      kind: 'test',
      subject: 'Hello',
      text: 'Hello <there>',
      html: '<!DOCTYPE html><html lang="en-GB"><head><title>Hello</title></head><body><p>Hello &lt;there&gt;</p></body></html>',
    });
    // A text has no HTML part, whatever it is given.
    await notifier(t.app.ctx).enqueue({
      channel: 'sms',
      to: '07700900999',
      kind: 'test',
      text: 'Hello',
      html: '<p>Hello</p>',
    });
    const [email] = await outbox(t.app, 'someone@example.org');
    expect(email).toMatchObject({
      body: 'Hello <there>',
      html: expect.stringContaining('<p>Hello &lt;there&gt;</p>'),
    });
    const [text] = await outbox(t.app, '07700900999');
    expect(text).toMatchObject({ body: 'Hello', html: null });
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox?to=someone@example.org' });
    expect(page.statusCode).toBe(200);
    // The frame's document is an escaped attribute: the page itself holds no markup of the email.
    expect(page.body).toContain('<iframe sandbox="allow-popups allow-popups-to-escape-sandbox"');
    expect(page.body).toContain(
      'srcdoc="&lt;!DOCTYPE html&gt;&lt;html lang=&quot;en-GB&quot;&gt;&lt;head&gt;&lt;base target=&quot;_blank&quot;&gt;',
    );
    expect(page.body).not.toContain('<p>Hello');
    // Its policy, which the frame inherits: the email's inline styles, nothing fetched, no script.
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['content-security-policy']).not.toMatch(/script-src/);
  });

  it('refuses the dev outbox when switched off and in production', async () => {
    t = await createTestApp({ DEV_OUTBOX: 'off' });
    for (const url of ['/dev/outbox', '/dev/outbox/api?to=x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    await t.close();
    t = await createTestApp({ NODE_ENV: 'production', DEV_OUTBOX: 'on', MODULES: 'content' });
    expect((await t.app.inject({ method: 'GET', url: '/dev/outbox/api' })).statusCode).toBe(404);
  });

  it('sends texts and calls through the SMS gateway webhook when configured', async () => {
    const received: Array<{ auth: string | undefined; body: { channel: string; to: string; text: string } }> =
      [];
    let status = 202;
    const server = createHttpServer((req: IncomingMessage, res) => {
      let data = '';
      req.on('data', (chunk) => (data += chunk));
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(data) });
        res.statusCode = status;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      t = await createTestApp({
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/send`,
        SMS_WEBHOOK_TOKEN: 'gateway-secret',
      });
      const { stateToken, factors } = await signIn(t.app, margaret.email, margaret.password);
      const sms = factors.find((f) => f.factorType === 'sms')!;
      const res = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken });
      expect(res.statusCode).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0]!.auth).toBe('Bearer gateway-secret');
      expect(received[0]!.body).toMatchObject({ channel: 'sms', to: margaret.mobile });
      expect(received[0]!.body.text).toMatch(/code is \d{6}\./);
      expect(await outbox(t.app, margaret.mobile)).toEqual([]);

      // A gateway failure is a clear 503 (with Retry-After) for the client, and the code it could not deliver is dead.
      status = 500;
      t.clock.advance(30_000);
      const failed = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify/resend`, { stateToken });
      expect(failed.statusCode).toBe(503);
      expect(failed.headers['retry-after']).toBe(String(SEND_NOW_RETRY_AFTER_SECONDS));
      expect(failed.json()).toMatchObject({ errorCode: 'E0000009' });
      const code = /code is (\d{6})\./.exec(received[1]!.body.text)![1]!;
      const tryIt = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
        stateToken,
        passCode: code,
      });
      expect(tryIt.statusCode).toBe(403);
    } finally {
      server.close();
    }
  });

  it('answers a sign-in code request within seconds when the gateway does not answer: 503 with Retry-After', async () => {
    // Accepts the request and never answers: a gateway that hangs.
    const held: Array<() => void> = [];
    const server = createHttpServer((_req, res) => void held.push(() => res.end('{}')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      t = await createTestApp({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/send` });
      const { stateToken, factors } = await signIn(t.app, margaret.email, margaret.password);
      const sms = factors.find((f) => f.factorType === 'sms')!;
      const started = performance.now();
      const res = await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken });
      const tookMs = performance.now() - started;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ errorCode: 'E0000009' });
      expect(res.headers['retry-after']).toBe(String(SEND_NOW_RETRY_AFTER_SECONDS));
      expect(held).toHaveLength(1);
      // The send's own bound (2 s) and the sign-in's work, not the 10 s a queued send may wait.
      expect(tookMs).toBeLessThan(4000);
    } finally {
      for (const release of held) release();
      server.close();
    }
  });

  it('gives up a synchronous email within seconds when the SMTP server accepts and never greets', async () => {
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'portal@example.org' });
      const started = performance.now();
      const send = notifier(t.app.ctx).sendNow({
        channel: 'email',
        to: 'inbox@example.org',
        kind: 'contact',
        subject: 'A message',
        text: 'Hello',
      });
      await expect(send).rejects.toBeInstanceOf(DeliveryError);
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('sends email over SMTP when SMTP_URL is set', async () => {
    const transcripts: string[] = [];
    const server = smtpReceiver((transcript, reply) => {
      transcripts.push(transcript);
      reply('250 2.0.0 queued');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      t = await createTestApp({
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Portal <portal@example.org>',
      });
      const res = await post(t.app, '/Registration/resetPassword', { email: margaret.email });
      expect(res.json()).toEqual({ status: 'OK' });
      // Queued, and sent by the worker after the answer.
      await messageWorker(t.app.ctx).drain();
      expect(transcripts).toHaveLength(1);
      expect(transcripts[0]).toContain('MAIL FROM:<portal@example.org>');
      expect(transcripts[0]).toContain(`RCPT TO:<${margaret.email}>`);
      expect(transcripts[0]).toContain('Subject: Reset your password');
      // The body is quoted-printable: undo soft line breaks and =XX escapes before reading the link.
      const body = transcripts[0]!
        .replace(/=\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      expect(body).toMatch(/http:\/\/localhost:3000\/forgotten-password\/new-password\?token=[\w-]{43}\n/);
      // Both parts, as multipart/alternative: the text first (the fallback), then the HTML with the same link.
      expect(body).toMatch(/^Content-Type: multipart\/alternative;/m);
      const plainAt = body.search(/^Content-Type: text\/plain/m);
      const htmlAt = body.search(/^Content-Type: text\/html/m);
      expect(plainAt).toBeGreaterThan(0);
      expect(htmlAt).toBeGreaterThan(plainAt);
      expect(body.slice(htmlAt)).toMatch(
        /<html lang="en-GB">[\s\S]*href="http:\/\/localhost:3000\/forgotten-password\/new-password\?token=[\w-]{43}"/,
      );
      // Once sent, the queue keeps neither part.
      const { rows } = await t.db.query<{ body: string | null; html: string | null }>(
        `SELECT body, html FROM message_queue WHERE kind = 'password-reset' AND status = 'sent'`,
      );
      expect(rows).toEqual([{ body: null, html: null }]);
      expect(await outbox(t.app, margaret.email)).toEqual([]);
      // Texts still go to the outbox: each channel has its own adapter.
      const { stateToken, factors } = await signIn(t.app, margaret.email, margaret.password);
      await post(t.app, `/api/v1/authn/factors/${factors[0]!.id}/verify`, { stateToken });
      expect(await latestCode(t.app, margaret.mobile)).toMatch(/^\d{6}$/);
    } finally {
      server.close();
    }
  });
});
