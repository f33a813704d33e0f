import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';

/*
 * What a production portal sends out, caught in the test: emails over SMTP, texts and calls through the
 * SMS gateway webhook, and the customers' changes as signed webhooks. Each receiver keeps what arrived,
 * in order, and lets a journey wait for the next message that matches.
 */

/** Messages in arrival order; `next` waits for the first one after `after` (a count) that matches. */
export class Inbox<T> {
  readonly messages: T[] = [];
  private readonly waiting = new Set<() => void>();

  push(message: T): void {
    this.messages.push(message);
    for (const wake of this.waiting) wake();
  }

  next(match: (m: T) => boolean, options: { after?: number; timeoutMs?: number; what: string }): Promise<T> {
    const { after = 0, timeoutMs = 20_000, what } = options;
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = this.messages.slice(after).find(match);
        if (!found) return false;
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve(found);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        this.waiting.delete(wake);
        reject(new Error(`waited ${timeoutMs} ms for ${what}; ${this.messages.length} message(s) arrived`));
      }, timeoutMs);
      this.waiting.add(wake);
      check();
    });
  }
}

export interface Receiver<T> {
  url: string;
  inbox: Inbox<T>;
  close(): Promise<void>;
}

async function listen(server: Server | TcpServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server | TcpServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface ReceivedEmail {
  to: string[];
  subject: string;
  /** The text body (an email's plain-text part), transfer encoding undone. */
  text: string;
  /** The HTML part of a multipart/alternative email, transfer encoding undone; null when there is none. */
  html: string | null;
}

/** Undoes the body's Content-Transfer-Encoding (nodemailer picks quoted-printable or base64 as needed). */
function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Headers and body of a message or a MIME part (lines joined with \n). */
function splitPart(part: string): { headers: string; body: string } {
  const split = part.indexOf('\n\n');
  return split >= 0
    ? { headers: part.slice(0, split), body: part.slice(split + 2) }
    : { headers: part, body: '' };
}

/**
 * The text and HTML of a message: its body when it is a single part, else the text/plain and text/html
 * parts of its multipart/alternative body (nodemailer sends both when the portal gives both).
 */
function contentOf(headers: string, body: string): { text: string; html: string | null } {
  const type = /^content-type:\s*([^;\s]+)/im.exec(headers)?.[1]?.toLowerCase() ?? 'text/plain';
  if (!type.startsWith('multipart/')) {
    const decoded = decodeBody(headers, body);
    return type === 'text/html' ? { text: '', html: decoded } : { text: decoded, html: null };
  }
  // The boundary may be on a folded header line.
  const boundary = /boundary="?([^";\n]+)"?/i.exec(headers)?.[1] ?? '';
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => splitPart(p.replace(/^\n/, '').replace(/\n$/, '')));
  const find = (wanted: string) =>
    parts.find((p) => /^content-type:\s*([^;\s]+)/im.exec(p.headers)?.[1]?.toLowerCase() === wanted);
  const plain = find('text/plain');
  const html = find('text/html');
  return {
    text: plain ? decodeBody(plain.headers, plain.body) : '',
    html: html ? decodeBody(html.headers, html.body) : null,
  };
}

/** A minimal SMTP server (no TLS, no auth): enough for nodemailer to hand over its messages (text and HTML). */
export async function smtpReceiver(): Promise<Receiver<ReceivedEmail>> {
  const inbox = new Inbox<ReceivedEmail>();
  const server = createTcpServer((socket) => {
    let buffer = '';
    let data: string[] | undefined;
    let to: string[] = [];
    socket.write('220 e2e ESMTP\r\n');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (data) {
          if (line !== '.') {
            // SMTP doubles a leading dot (dot-stuffing).
            data.push(line.startsWith('.') ? line.slice(1) : line);
            continue;
          }
          const { headers, body } = splitPart(data.join('\n'));
          const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '';
          inbox.push({ to, subject, ...contentOf(headers, body) });
          data = undefined;
          to = [];
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') socket.write('250 e2e\r\n');
        else if (command === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? '');
          socket.write('250 ok\r\n');
        } else if (command === 'DATA') {
          data = [];
          socket.write('354 go ahead\r\n');
        } else if (command === 'QUIT') {
          socket.write('221 bye\r\n');
          socket.end();
        } else socket.write('250 ok\r\n');
      }
    });
  });
  const port = await listen(server);
  return { url: `smtp://127.0.0.1:${port}`, inbox, close: () => closeServer(server) };
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (a signature is over these bytes). */
  body: string;
}

/** An HTTP server that answers every POST with `status` and keeps the request. */
export async function httpReceiver(path: string, status = 204): Promise<Receiver<ReceivedRequest>> {
  const inbox = new Inbox<ReceivedRequest>();
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      inbox.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = status;
      res.end();
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}${path}`, inbox, close: () => closeServer(server) };
}

/** A text or a call as the portal hands it to the SMS gateway. */
export interface ReceivedText {
  channel: string;
  to: string;
  text: string;
}

export function textOf(request: ReceivedRequest): ReceivedText {
  return JSON.parse(request.body) as ReceivedText;
}

/** A phone number's national digits (07700900123), however the portal writes it. */
export function nationalNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.startsWith('44') ? `0${digits.slice(2)}` : digits;
}
