import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { integrationScopes, type IntegrationScope } from '@portal/contracts/call';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const url = z.url({ protocol: /^https?$/ });
const optionalUrl = url.optional();

type TrustProxy = false | number | string[];

/**
 * Every setting the server reads, from the environment. Parsed once at start; a bad value stops the
 * process with a one-line message naming the variable.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: url.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * On SIGTERM/SIGINT: seconds the instance keeps serving, while /readyz answers 503, before it stops
   * listening, so a load balancer's health check takes it out first. Default 10 in production, else 0.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** With DATABASE_URL: how long to wait for a connection before answering 503 (milliseconds). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** With DATABASE_URL: how long one statement may run or go unanswered before answering 503 (milliseconds). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** With DATABASE_URL: the most connections the instance's pool opens (decision 030 on sizing it). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * With DATABASE_URL: named prepared statements, each statement planned once per connection (decision
   * 029). `false` for a pooler that cannot keep them (PgBouncer before 1.21 in transaction mode).
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(['true', 'false']).default('true'),
  /**
   * Benchmarks only, refused in production: a file where each request sent with `X-Portal-Sql-Capture: 1`
   * has the statements it ran (text, parameters, rows, timing) appended as one JSON line
   * (platform/sql-capture.ts; bench/api-load.ts replays them in its bare peer).
   */
  PORTAL_SQL_CAPTURE_FILE: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.data')),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** With REDIS_URL: how long one command may go unanswered before a call that needs a counter answers 503. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(500),
  /** Which service modules this instance serves; all by default. */
  MODULES: z.string().optional(),
  CONTENT_BASE_URL: optionalUrl,
  ACCOUNT_BASE_URL: optionalUrl,
  POLICY_BASE_URL: optionalUrl,
  DOCUMENT_BASE_URL: optionalUrl,
  EVENTLOG_BASE_URL: optionalUrl,
  REGISTRATION_BASE_URL: optionalUrl,
  PORTAL_API_BASE_URL: optionalUrl,
  IDENTITY_BASE_URL: optionalUrl,
  FEATURE_FLAG_SDK_KEY: z.string().min(1).max(200).default('sdk-portal-local'),
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'apps', 'web', 'dist')),
  /**
   * Seed the demo customers (published passwords) and their policies, documents and sign-ins. Default: on
   * outside production, off in production; `true` in production is allowed for a demo site, with a warning.
   */
  SEED_DEMO_DATA: z.enum(['true', 'false']).optional(),
  /** Shown on the outbox page and API; refused in production whatever this says. */
  DEV_OUTBOX: z.enum(['on', 'off']).default('on'),
  /** The insurer's policy system, where mid-term changes, renewals and quote-and-buy continue. */
  POLICY_SYSTEM_URL: url.optional(),
  /**
   * Which proxies' X-Forwarded-For entries to believe: `false`, the number of proxies in front of the
   * portal, or their addresses (IPs or CIDR ranges, comma-separated). The client's address is then the
   * rightmost entry not written by a trusted proxy (Fastify's trustProxy).
   */
  TRUST_PROXY: z.string().default('false'),
  /** The most client audit events appended in one INSERT (group commit, decision 015). */
  AUDIT_BATCH_MAX: z.coerce.number().int().min(1).max(1000).default(200),
  /** The most client audit events waiting for the next INSERT; beyond that a post is answered 503. */
  AUDIT_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(5000),
  /**
   * Batches of client audit events written at once on PostgreSQL, each on its own pooled connection
   * (decision 015). The embedded database runs one transaction at a time, so there it is always one.
   */
  AUDIT_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * Minutes between housekeeping runs (expired sign-in state, counters and provider rows, messages sent
   * over 30 days ago, the audit trail past AUDIT_RETENTION_DAYS); 0 switches housekeeping off.
   */
  HOUSEKEEPING_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  /** Days the audit trail is kept before housekeeping deletes it: seven years (2,557 days) by default. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(365).max(36_500).default(2557),
  /** Prefix of every Redis key this deployment writes (counters, limits); lets environments share a server. */
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('portal:'),
  /** Email delivery: an SMTP URL (smtp:// or smtps://, credentials in the URL); unset means the outbox. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The From address of every email we send. */
  MAIL_FROM: z.string().min(3).max(200).default('Customer Portal <no-reply@portal.example.co.uk>'),
  /** Where contact-us messages go: the insurer's customer service inbox. */
  CONTACT_INBOX: z.string().email().max(200).default('customer.service@portal.example.co.uk'),
  /** Text and voice delivery: 'outbox' (default; dev page and log) or 'webhook' (a provider gateway over HTTPS). */
  SMS_PROVIDER: z.enum(['outbox', 'webhook']).default('outbox'),
  /** With SMS_PROVIDER=webhook: the gateway URL that receives {channel, to, text} as JSON. */
  SMS_WEBHOOK_URL: optionalUrl,
  /** With SMS_PROVIDER=webhook: the bearer token sent to the gateway. */
  SMS_WEBHOOK_TOKEN: z.string().min(1).max(500).optional(),
  SEND_NOW_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** OpenID provider signing keys: a JWKS (JSON) of private keys, the signing key first. Required in production. */
  OIDC_JWKS: z.string().min(1).optional(),
  /** Secrets that sign the OpenID provider's cookies, comma-separated, newest first. Required in production. */
  OIDC_COOKIE_KEYS: z.string().min(1).optional(),
  /**
   * The key that encrypts authenticator-app secrets at rest (AES-256-GCM): 32 bytes, base64. Required in
   * production; elsewhere a fixed development key.
   */
  MFA_ENCRYPTION_KEY: z.string().min(1).optional(),
  MFA_ENCRYPTION_KEYS_PREVIOUS: z.string().optional(),
  /**
   * Origins besides PUBLIC_URL's that may use passkeys (comma-separated, e.g. another host name of the
   * same site). The relying party id is always PUBLIC_URL's host name, so each must be on it or under it.
   */
  WEBAUTHN_EXTRA_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const o of list) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(o);
        } catch {
          parsed = undefined;
        }
        if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== o.replace(/\/+$/, '')) {
          ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${o}` });
        }
      }
      return list.map((o) => o.replace(/\/+$/, ''));
    }),
  /** Access (and ID) token lifetime in seconds. */
  OIDC_ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(3600).default(600),
  /** Absolute lifetime in seconds of a provider session and of the refresh tokens issued in it. */
  OIDC_SESSION_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(7 * 24 * 3600)
    .default(8 * 3600),
  /** Base URL of the integration API (the insurer's systems of record); its audience is this plus /integration. */
  INTEGRATION_BASE_URL: optionalUrl,
  /**
   * The integration API's machine clients, as JSON (docs/integration.md): an array of
   * {clientId, scopes, secretSha256 | jwks, rateLimitPerMinute?}. Unset: no client can get a token.
   */
  INTEGRATION_CLIENTS: z.string().min(2).optional(),
  /**
   * Where customers' changes are sent as signed webhooks, as JSON: an array of
   * {id, url, secret ("whsec_..."), events?}. Unset: none (the events feed still has them).
   */
  INTEGRATION_WEBHOOKS: z.string().min(2).optional(),
  /**
   * The port of the metrics listener (Prometheus text at /metrics), apart from the public one; unset: no
   * listener (decision 022). 0 takes any free port (it is logged).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address the metrics listener binds to: loopback unless the scraper is elsewhere. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Also serve the metrics at this path of the public listener (e.g. /metrics); unset by default, since
   * anyone who can reach the portal could then read them: only behind a proxy that refuses the path.
   */
  METRICS_PUBLIC_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, 'a path starting with /, such as /metrics')
    .optional(),
  /**
   * OpenTelemetry traces: the OTLP/HTTP collector's base URL (e.g. http://127.0.0.1:4318); unset, no
   * tracing. The other OTEL_* variables (headers, OTEL_SERVICE_NAME) are read by the exporter itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** The largest PDF the integration API takes, in bytes. */
  INTEGRATION_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(500 * 1024 * 1024)
    .default(20 * 1024 * 1024),
});

/** The name of every variable the server reads (README.md and .env.example document each one). */
export const envVariables: readonly string[] = Object.keys(envSchema.shape);

export const moduleNames = [
  'content',
  'identity',
  'registration',
  'account',
  'policy',
  'document',
  'eventlog',
  'portal',
  'integration',
] as const;
export type ModuleName = (typeof moduleNames)[number];

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  /** On SIGTERM/SIGINT: how long the instance keeps serving, not ready, before it stops listening. */
  shutdownDrainMs: number;
  database:
    | {
        kind: 'postgres';
        url: string;
        max: number;
        preparedStatements: boolean;
        connectTimeoutMs: number;
        statementTimeoutMs: number;
      }
    | { kind: 'pglite'; dataDir: string | undefined };
  dataDir: string;
  redisUrl: string | undefined;
  /** With redisUrl: milliseconds a Redis command may go unanswered (a frozen server) before a 503. */
  redisCommandTimeoutMs: number;
  modules: ReadonlySet<ModuleName>;
  /** Base URL of each service as the SPA calls it; the module is mounted under its path. */
  baseUrls: Record<ModuleName, string>;
  /**
   * Where links to the insurer's policy system lead (mid-term adjustment, view renewal, request a change,
   * online quote and buy). Unset: the portal's own stand-in page at {publicUrl}/policy-system.
   */
  policySystemUrl: string;
  featureFlagSdkKey: string;
  webDistDir: string;
  devOutbox: boolean;
  /** Benchmarks only (never in production): where captured statements go (platform/sql-capture.ts). */
  sqlCaptureFile: string | undefined;
  /** Whether the seed writes the demo customers and their data (insurer reference data always seeds). */
  seedDemoData: boolean;
  /** Fastify's trustProxy: false, a hop count or the proxies' addresses (never `true`: see parseTrustProxy). */
  trustProxy: TrustProxy;
  redisKeyPrefix: string;
  /** Group commit of the SPA's audit events: rows per INSERT, rows that may wait, batches written at once. */
  auditQueue: { maxBatch: number; maxQueue: number; maxInFlight: number };
  /** Housekeeping (platform/housekeeping.ts): minutes between runs (0: off), days the audit trail is kept. */
  housekeeping: { intervalMinutes: number; auditRetentionDays: number };
  /** How messages to customers are delivered (see platform/notifier.ts). */
  messaging: {
    smtpUrl: string | undefined;
    mailFrom: string;
    contactInbox: string;
    smsProvider: 'outbox' | 'webhook';
    smsWebhookUrl: string | undefined;
    smsWebhookToken: string | undefined;
    /**
     * Milliseconds a synchronous send (a sign-in code, a customer's message to the inbox) waits for the
     * provider before the customer is told it did not go.
     */
    sendNowTimeoutMs: number;
  };
  oidc: OidcConfig;
  /** The AES-256-GCM key (32 bytes) that encrypts authenticator-app secrets at rest. */
  mfaEncryptionKey: Buffer;
  /** MFA_ENCRYPTION_KEYS_PREVIOUS: keys being rotated out; they still open what they sealed. */
  mfaPreviousKeys: Buffer[];
  /** Passkeys: the relying party id (PUBLIC_URL's host name) and the origins allowed to use them. */
  webauthn: { rpId: string; origins: string[] };
  integration: IntegrationConfig;
  /** Where the Prometheus metrics are served: a listener of their own, a public path, both or neither. */
  metrics: { port: number | undefined; host: string; publicPath: string | undefined };
  /** OpenTelemetry traces: on when the OTLP endpoint is set. */
  tracing: { otlpEndpoint: string | undefined };
}

/** One machine client of the integration API (the insurer's systems of record). */
interface IntegrationClientConfig {
  clientId: string;
  scopes: IntegrationScope[];
  /**
   * client_secret_basic: the SHA-256 (hex) of the secret, the secret itself is never configured; two
   * while a secret is rotated (the old and the new both work until the old is removed).
   */
  secretSha256?: string[];
  /** private_key_jwt: the client's public keys. */
  jwks?: { keys: Array<Record<string, unknown>> };
  /** Requests a minute this client may make, across every instance. */
  rateLimitPerMinute: number;
}

/** One receiver of the customers' changes as signed webhooks (Standard Webhooks). */
export interface WebhookEndpointConfig {
  id: string;
  url: string;
  /** The signing secret, `whsec_` and base64, as Standard Webhooks gives it. */
  secret: string;
  /** Event types sent; all when absent. */
  events: string[] | undefined;
}

interface IntegrationConfig {
  clients: IntegrationClientConfig[];
  webhooks: WebhookEndpointConfig[];
  maxFileBytes: number;
}

/** A JSON Web Key as configured (private signing keys carry `d`). */
export type ConfiguredJwk = { kty: string; kid?: string; d?: string } & Record<string, unknown>;

interface OidcConfig {
  /** Signing keys from OIDC_JWKS; undefined means generate and store them in the database (not in production). */
  jwks: { keys: ConfiguredJwk[] } | undefined;
  /** Cookie signing secrets from OIDC_COOKIE_KEYS; undefined means generate and store them (not in production). */
  cookieKeys: string[] | undefined;
  accessTokenTtl: number;
  sessionTtl: number;
}

export class ConfigError extends Error {}

const baseUrlEnv: Record<ModuleName, keyof z.infer<typeof envSchema>> = {
  content: 'CONTENT_BASE_URL',
  identity: 'IDENTITY_BASE_URL',
  registration: 'REGISTRATION_BASE_URL',
  account: 'ACCOUNT_BASE_URL',
  policy: 'POLICY_BASE_URL',
  document: 'DOCUMENT_BASE_URL',
  eventlog: 'EVENTLOG_BASE_URL',
  portal: 'PORTAL_API_BASE_URL',
  integration: 'INTEGRATION_BASE_URL',
};

/** Reads config from an environment (process.env by default). Throws ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    // One line, whatever the validator's wording: it is what an operator sees when the start fails.
    throw new ConfigError(`Invalid configuration: ${name}: ${issue.message.replace(/\s+/g, ' ')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const baseUrls = Object.fromEntries(
    moduleNames.map((m) => [m, ((e[baseUrlEnv[m]] as string | undefined) ?? publicUrl).replace(/\/+$/, '')]),
  ) as Record<ModuleName, string>;

  let modules: Set<ModuleName> = new Set(moduleNames);
  if (e.MODULES) {
    const wanted = e.MODULES.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((m) => !(moduleNames as readonly string[]).includes(m));
    if (unknown.length > 0 || wanted.length === 0) {
      throw new ConfigError(
        `Invalid configuration: MODULES: unknown module ${unknown.join(', ') || '(none)'}; expected some of ${moduleNames.join(', ')}`,
      );
    }
    modules = new Set(wanted as ModuleName[]);
  }

  if (e.PORTAL_SQL_CAPTURE_FILE && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration: PORTAL_SQL_CAPTURE_FILE: not allowed in production (it writes query parameters, personal data among them, to a file)',
    );
  }
  const oidc = parseOidcConfig(e, modules);

  if (e.SMS_PROVIDER === 'webhook' && !e.SMS_WEBHOOK_URL) {
    throw new ConfigError('Invalid configuration: SMS_WEBHOOK_URL: required when SMS_PROVIDER=webhook');
  }
  requireRealDelivery(e, modules);

  return {
    env: e.NODE_ENV,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    port: e.PORT,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (e.NODE_ENV === 'production' ? 10 : 0)) * 1000,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          max: e.DATABASE_POOL_SIZE,
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'true',
          connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        }
      : { kind: 'pglite', dataDir: path.join(e.DATA_DIR, 'pglite') },
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    modules,
    baseUrls,
    policySystemUrl: (e.POLICY_SYSTEM_URL ?? `${publicUrl}/policy-system`).replace(/\/+$/, ''),
    featureFlagSdkKey: e.FEATURE_FLAG_SDK_KEY,
    webDistDir: e.WEB_DIST_DIR,
    devOutbox: e.NODE_ENV !== 'production' && e.DEV_OUTBOX === 'on',
    sqlCaptureFile: e.PORTAL_SQL_CAPTURE_FILE,
    seedDemoData: e.SEED_DEMO_DATA ? e.SEED_DEMO_DATA === 'true' : e.NODE_ENV !== 'production',
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    auditQueue: {
      maxBatch: e.AUDIT_BATCH_MAX,
      maxQueue: e.AUDIT_QUEUE_MAX,
      maxInFlight: e.AUDIT_BATCHES_IN_FLIGHT,
    },
    housekeeping: {
      intervalMinutes: e.HOUSEKEEPING_INTERVAL_MINUTES,
      auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    },
    messaging: {
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      contactInbox: e.CONTACT_INBOX,
      smsProvider: e.SMS_PROVIDER,
      smsWebhookUrl: e.SMS_WEBHOOK_URL,
      smsWebhookToken: e.SMS_WEBHOOK_TOKEN,
      sendNowTimeoutMs: e.SEND_NOW_TIMEOUT_MS,
    },
    oidc,
    mfaEncryptionKey: parseMfaEncryptionKey(e, modules),
    mfaPreviousKeys: parsePreviousMfaKeys(e.MFA_ENCRYPTION_KEYS_PREVIOUS),
    webauthn: {
      rpId: new URL(publicUrl).hostname,
      origins: [...new Set([new URL(publicUrl).origin, ...e.WEBAUTHN_EXTRA_ORIGINS])],
    },
    integration: {
      clients:
        e.INTEGRATION_CLIENTS || e.NODE_ENV === 'production'
          ? parseIntegrationClients(e.INTEGRATION_CLIENTS)
          : [demoIntegrationClient],
      webhooks: parseWebhooks(e.INTEGRATION_WEBHOOKS, e.NODE_ENV),
      maxFileBytes: e.INTEGRATION_MAX_FILE_BYTES,
    },
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, publicPath: e.METRICS_PUBLIC_PATH },
    tracing: { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT },
  };
}

/**
 * Outside production, when no clients are configured: a demo client whose secret the README publishes
 * (like the demo customers' passwords), for `npm run integration:demo` and trying the API by hand. Never
 * in production.
 */
const DEMO_INTEGRATION_CLIENT = {
  clientId: 'demo-system',
  secret: 'demo-system-secret-not-for-production',
};
const demoIntegrationClient: IntegrationClientConfig = {
  clientId: DEMO_INTEGRATION_CLIENT.clientId,
  // SHA-256 of the published secret.
  secretSha256: [createHash('sha256').update(DEMO_INTEGRATION_CLIENT.secret).digest('hex')],
  scopes: [...integrationScopes],
  rateLimitPerMinute: 1200,
};

const clientIdRule = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

const integrationClientSchema = z
  .strictObject({
    clientId: z.string().regex(clientIdRule, 'letters, digits, ".", "_" and "-", 3 to 64 characters'),
    scopes: z.array(z.enum(integrationScopes)).min(1),
    secretSha256: z
      .union([z.string(), z.array(z.string()).min(1).max(3)])
      .transform((v) => [v].flat())
      .pipe(
        z.array(z.string().regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the secret, 64 lower-case hex digits')),
      )
      .optional(),
    jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) }).optional(),
    rateLimitPerMinute: z.number().int().min(1).max(1_000_000).default(1200),
  })
  .refine((c) => (c.secretSha256 === undefined) !== (c.jwks === undefined), {
    message: 'give either secretSha256 (client_secret_basic) or jwks (private_key_jwt)',
  });

/** INTEGRATION_CLIENTS: a JSON array of clients; unique ids, none named like the portal's own client. */
export function parseIntegrationClients(value: string | undefined): IntegrationClientConfig[] {
  if (!value) return [];
  const parsed = parseJsonSetting('INTEGRATION_CLIENTS', value);
  const result = z.array(integrationClientSchema).safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(
      `Invalid configuration: INTEGRATION_CLIENTS: ${issue.path.join('.') || 'value'}: ${issue.message.replace(/\s+/g, ' ')}`,
    );
  }
  const ids = result.data.map((c) => c.clientId);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated)
    throw new ConfigError(`Invalid configuration: INTEGRATION_CLIENTS: client ${repeated} is given twice`);
  for (const client of result.data) {
    for (const key of client.jwks?.keys ?? []) {
      if ('d' in key) {
        throw new ConfigError(
          `Invalid configuration: INTEGRATION_CLIENTS: ${client.clientId}: jwks must hold public keys only`,
        );
      }
    }
  }
  return result.data as IntegrationClientConfig[];
}

const webhookSchema = z.strictObject({
  id: z.string().regex(clientIdRule, 'letters, digits, ".", "_" and "-", 3 to 64 characters'),
  url: z.url({ protocol: /^https?$/ }),
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'a Standard Webhooks secret: whsec_ and base64 (24+ bytes)'),
  events: z.array(z.string().min(1)).min(1).optional(),
});

/** INTEGRATION_WEBHOOKS: a JSON array of receivers; https only in production. */
function parseWebhooks(value: string | undefined, env: string): WebhookEndpointConfig[] {
  if (!value) return [];
  const result = z.array(webhookSchema).safeParse(parseJsonSetting('INTEGRATION_WEBHOOKS', value));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(
      `Invalid configuration: INTEGRATION_WEBHOOKS: ${issue.path.join('.') || 'value'}: ${issue.message.replace(/\s+/g, ' ')}`,
    );
  }
  const ids = result.data.map((w) => w.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated)
    throw new ConfigError(`Invalid configuration: INTEGRATION_WEBHOOKS: ${repeated} is given twice`);
  return result.data.map((w) => {
    const local = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//.test(w.url);
    if (env === 'production' && !w.url.startsWith('https:') && !local) {
      throw new ConfigError(
        `Invalid configuration: INTEGRATION_WEBHOOKS: ${w.id}: url must be https in production`,
      );
    }
    return { id: w.id, url: w.url, secret: w.secret, events: w.events };
  });
}

function parseJsonSetting(name: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new ConfigError(`Invalid configuration: ${name}: not valid JSON`);
  }
}

/** The modules that send customers codes (texts, calls) or emails, directly or through identity. */
const messagingModules: readonly ModuleName[] = ['identity', 'registration', 'account', 'portal'];

/**
 * In production a code or an email must reach the customer: an instance serving a module that sends them
 * refuses to start with the outbox (SMS_PROVIDER=outbox, the default, or no SMTP_URL), which only the dev
 * outbox page, never mounted in production, can read.
 */
function requireRealDelivery(e: z.infer<typeof envSchema>, modules: ReadonlySet<ModuleName>): void {
  if (e.NODE_ENV !== 'production' || !messagingModules.some((m) => modules.has(m))) return;
  if (e.SMS_PROVIDER === 'outbox') {
    throw new ConfigError(
      'Invalid configuration: SMS_PROVIDER: outbox is not allowed in production (codes would reach no one); set SMS_PROVIDER=webhook and SMS_WEBHOOK_URL',
    );
  }
  if (!e.SMTP_URL) {
    throw new ConfigError(
      'Invalid configuration: SMTP_URL: required in production (emails would reach no one without it)',
    );
  }
}

/** TRUST_PROXY: false, a hop count, or the proxies' addresses; anything else stops the start. */
function parseTrustProxy(value: string): TrustProxy {
  const setting = value.trim();
  if (setting === 'false' || setting === '') return false;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    if (hops >= 1 && hops <= 20) return hops;
  }
  if (setting === 'true') {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY: true would believe addresses the client writes itself; give the number of proxies in front of the portal (for example 1) or their addresses',
    );
  }
  const addresses = setting.split(',').map((a) => a.trim());
  const valid = (entry: string) => {
    const [ip, bits, extra] = entry.split('/');
    const version = isIP(ip ?? '');
    if (version === 0 || extra !== undefined) return false;
    if (bits === undefined) return true;
    const n = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
    return n >= 0 && n <= (version === 4 ? 32 : 128);
  };
  if (addresses.length > 0 && addresses.every(valid)) return addresses;
  throw new ConfigError(
    'Invalid configuration: TRUST_PROXY: expected false, the number of proxies (1 to 20) or their addresses (IPs or CIDR ranges, comma-separated)',
  );
}

/** Outside production only: a fixed key, so development and test data stay readable across restarts. */
const DEV_MFA_ENCRYPTION_KEY = createHash('sha256').update('portal-dev-mfa-encryption-key').digest();

/** MFA_ENCRYPTION_KEY: 32 bytes in base64, required in production by an instance serving identity. */
function parseMfaEncryptionKey(e: z.infer<typeof envSchema>, modules: ReadonlySet<ModuleName>): Buffer {
  if (!e.MFA_ENCRYPTION_KEY) {
    if (e.NODE_ENV === 'production' && modules.has('identity')) {
      throw new ConfigError(
        'Invalid configuration: MFA_ENCRYPTION_KEY: required in production (32 random bytes, base64)',
      );
    }
    return DEV_MFA_ENCRYPTION_KEY;
  }
  const key = mfaKeyBytes(e.MFA_ENCRYPTION_KEY);
  if (!key) throw new ConfigError('Invalid configuration: MFA_ENCRYPTION_KEY: expected 32 bytes in base64');
  return key;
}

const mfaKeyBytes = (text: string): Buffer | null => {
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  return key.length === 32 ? key : null;
};

/** MFA_ENCRYPTION_KEYS_PREVIOUS: comma-separated earlier keys, each 32 bytes in base64. */
function parsePreviousMfaKeys(value: string | undefined): Buffer[] {
  const texts = (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return texts.map((text) => {
    const key = mfaKeyBytes(text);
    if (!key) {
      throw new ConfigError(
        'Invalid configuration: MFA_ENCRYPTION_KEYS_PREVIOUS: expected 32-byte keys in base64, comma-separated',
      );
    }
    return key;
  });
}

/**
 * OpenID provider keys. In production an instance serving identity must be given them (generated keys in a
 * database are a development convenience); elsewhere missing keys are generated on first start.
 */
function parseOidcConfig(e: z.infer<typeof envSchema>, modules: ReadonlySet<ModuleName>): OidcConfig {
  const required = e.NODE_ENV === 'production' && modules.has('identity');
  if (required && !e.OIDC_JWKS) {
    throw new ConfigError(
      'Invalid configuration: OIDC_JWKS: required in production (a JWKS of private signing keys)',
    );
  }
  if (required && !e.OIDC_COOKIE_KEYS) {
    throw new ConfigError(
      'Invalid configuration: OIDC_COOKIE_KEYS: required in production (comma-separated secrets of 32+ characters)',
    );
  }
  let jwks: OidcConfig['jwks'];
  if (e.OIDC_JWKS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(e.OIDC_JWKS);
    } catch {
      throw new ConfigError('Invalid configuration: OIDC_JWKS: not valid JSON');
    }
    const keys = (parsed as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys) || keys.length === 0) {
      throw new ConfigError(
        'Invalid configuration: OIDC_JWKS: expected {"keys":[...]} with at least one key',
      );
    }
    for (const key of keys as Array<Record<string, unknown>>) {
      if (typeof key !== 'object' || key === null || !['RSA', 'EC', 'OKP'].includes(String(key['kty']))) {
        throw new ConfigError('Invalid configuration: OIDC_JWKS: every key needs kty RSA, EC or OKP');
      }
      if (typeof key['d'] !== 'string') {
        throw new ConfigError('Invalid configuration: OIDC_JWKS: every key must be a private key (with "d")');
      }
    }
    jwks = { keys: keys as ConfiguredJwk[] };
  }
  let cookieKeys: string[] | undefined;
  if (e.OIDC_COOKIE_KEYS) {
    cookieKeys = e.OIDC_COOKIE_KEYS.split(',').map((k) => k.trim());
    if (cookieKeys.some((k) => k.length < 32)) {
      throw new ConfigError(
        'Invalid configuration: OIDC_COOKIE_KEYS: every key must be at least 32 characters',
      );
    }
  }
  return { jwks, cookieKeys, accessTokenTtl: e.OIDC_ACCESS_TOKEN_TTL, sessionTtl: e.OIDC_SESSION_TTL };
}

/** The path a module is mounted under: the path part of its base URL ('' for the site root). */
export function mountPrefix(baseUrl: string): string {
  const p = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return p === '/' ? '' : p;
}
