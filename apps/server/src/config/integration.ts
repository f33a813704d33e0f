import { createHash } from 'node:crypto';
import { z } from 'zod';
import { integrationScopes, type IntegrationScope } from '@portal/contracts/call';
import { ConfigError, optionalUrl } from './common';
import type { NodeEnv } from './process';

/*
 * The integration API (the insurer's systems of record, docs/integration.md): its base URL, its machine
 * clients, the webhooks customers' changes are sent to, the largest file it takes.
 */

export const integrationVariables = z.object({
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
  /** The largest PDF the integration API takes, in bytes. */
  INTEGRATION_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(500 * 1024 * 1024)
    .default(20 * 1024 * 1024),
});
export type IntegrationValues = z.infer<typeof integrationVariables>;

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

export interface IntegrationConfig {
  integration: {
    clients: IntegrationClientConfig[];
    webhooks: WebhookEndpointConfig[];
    maxFileBytes: number;
  };
}

export function integrationConfig(e: IntegrationValues & NodeEnv): IntegrationConfig {
  return {
    integration: {
      clients:
        e.INTEGRATION_CLIENTS || e.NODE_ENV === 'production'
          ? parseIntegrationClients(e.INTEGRATION_CLIENTS)
          : [demoIntegrationClient],
      webhooks: parseWebhooks(e.INTEGRATION_WEBHOOKS, e.NODE_ENV),
      maxFileBytes: e.INTEGRATION_MAX_FILE_BYTES,
    },
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
