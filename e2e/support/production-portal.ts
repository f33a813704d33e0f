import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair } from 'jose';
import {
  httpReceiver,
  smtpReceiver,
  type ReceivedEmail,
  type ReceivedRequest,
  type Receiver,
} from './receivers';

/*
 * A production-mode portal of its own for one journey: the built bundle (`npm run test:e2e` builds it)
 * with NODE_ENV=production, no demo data, a fresh embedded database in a temp directory, and real
 * delivery pointed at receivers in the test (SMTP, the SMS gateway webhook, one webhook endpoint for the
 * customers' changes). Keys and secrets are made afresh for each start and never logged.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverBundle = path.join(repoRoot, 'apps', 'server', 'dist', 'server.mjs');

/** Every scope of the integration API: the journey's one client may do everything. */
export const allIntegrationScopes = [
  'customers.write',
  'policies.write',
  'documents.write',
  'billing.write',
  'notifications.write',
  'messages.write',
  'events.read',
] as const;

export interface ProductionPortal {
  url: string;
  client: { clientId: string; secret: string };
  webhookSecret: string;
  emails: Receiver<ReceivedEmail>;
  /** Requests to the SMS gateway: JSON {channel, to, text}. */
  texts: Receiver<ReceivedRequest>;
  webhooks: Receiver<ReceivedRequest>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An RS256 private signing key as the OpenID provider takes it (OIDC_JWKS). */
async function signingKeys(): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return JSON.stringify({
    keys: [{ ...jwk, kid: `e2e-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' }],
  });
}

/** The last lines the server wrote, to say why a start failed (the server logs no secrets or codes). */
function tail(child: ChildProcess): () => string {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n'));
    lines.splice(0, Math.max(0, lines.length - 60));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => lines.join('\n');
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited(child).then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the production portal exited (code ${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return;
    } catch {
      // Not listening yet (the first start creates the database in a child process first).
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the production portal was not ready within ${timeoutMs / 1000} s:\n${output()}`);
}

/** Starts the portal and its receivers; resolves once GET /readyz answers 200. */
export async function startProductionPortal(
  options: { readyTimeoutMs?: number } = {},
): Promise<ProductionPortal> {
  if (!existsSync(serverBundle)) {
    throw new Error(`${serverBundle} is missing: run "npm run build" first (npm run test:e2e does)`);
  }
  const [emails, texts, webhooks, port, jwks] = await Promise.all([
    smtpReceiver(),
    httpReceiver('/sms'),
    httpReceiver('/webhooks/portal'),
    freePort(),
    signingKeys(),
  ]);
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-production-'));
  const client = { clientId: 'e2e-records', secret: randomBytes(32).toString('base64url') };
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;

  const child = spawn(process.execPath, [serverBundle], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // No load balancer in front to drain from: stop at once when the journey ends.
      SHUTDOWN_DRAIN_SECONDS: '0',
      // Embedded database and in-process counters, whatever CI exports for the data-layer tests.
      DATABASE_URL: '',
      REDIS_URL: '',
      // Nothing else the environment may carry changes what this portal is (empty counts as unset).
      SEED_DEMO_DATA: '',
      MODULES: '',
      INTEGRATION_BASE_URL: '',
      SMS_WEBHOOK_TOKEN: '',
      OIDC_JWKS: jwks,
      OIDC_COOKIE_KEYS: randomBytes(32).toString('base64url'),
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SMTP_URL: emails.url,
      // A document's notice goes out at once (the window is the pass's business, tested on the server).
      DOCUMENT_NOTICE_WINDOW_MINUTES: '0',
      // Texts about documents wait out the quiet hours (tested on the server): not at whatever hour CI runs.
      DOCUMENT_NOTICE_QUIET_HOURS: 'off',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: texts.url,
      INTEGRATION_CLIENTS: JSON.stringify([
        {
          clientId: client.clientId,
          secretSha256: createHash('sha256').update(client.secret).digest('hex'),
          scopes: allIntegrationScopes,
        },
      ]),
      INTEGRATION_WEBHOOKS: JSON.stringify([
        { id: 'e2e-receiver', url: webhooks.url, secret: webhookSecret },
      ]),
    },
  });
  const output = tail(child);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(killer);
    }
    await Promise.all([emails.close(), texts.close(), webhooks.close()]);
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(url, child, output, options.readyTimeoutMs ?? 240_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, client, webhookSecret, emails, texts, webhooks, stop };
}
