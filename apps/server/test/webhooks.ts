/**
 * Test support: a webhook receiver on 127.0.0.1 that checks every request's signature with the Standard
 * Webhooks library, the way an insurer's system would, and answers the status the test sets.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { TestContext } from './helpers';
import { webhookDispatcher } from '../src/modules/integration/webhooks';

interface ReceivedWebhook {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  /** Whether `new Webhook(secret).verify(body, headers)` accepted it. */
  verified: boolean;
  /** The status the receiver answered. */
  answered: number;
}

export interface Receiver {
  url: string;
  secret: string;
  /** Every request, in arrival order. */
  attempts: ReceivedWebhook[];
  /** The requests answered 2xx. */
  delivered(): ReceivedWebhook[];
  answer(status: number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const attempts: ReceivedWebhook[] = [];
  let status = 204;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        new Webhook(secret).verify(body, headersOf(req.headers));
      } catch {
        verified = false;
      }
      const parsed = JSON.parse(body) as { type: string; timestamp: string; data: Record<string, unknown> };
      attempts.push({ id: String(req.headers['webhook-id']), ...parsed, verified, answered: status });
      res.statusCode = status;
      res.end(status >= 400 ? 'receiver down' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    secret,
    attempts,
    delivered: () => attempts.filter((a) => a.answered < 300),
    answer: (s) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function headersOf(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
}

/** INTEGRATION_WEBHOOKS for one receiver. */
export function webhookEnv(receiver: Receiver, events?: string[]): Record<string, string> {
  return {
    INTEGRATION_WEBHOOKS: JSON.stringify([
      { id: 'crm', url: receiver.url, secret: receiver.secret, ...(events ? { events } : {}) },
    ]),
  };
}

/** Sends everything due now (tests move the clock instead of waiting for the poll). */
export const drain = (t: TestContext) => webhookDispatcher(t.app.ctx).drain();
