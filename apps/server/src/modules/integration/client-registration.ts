/**
 * Registering a machine client of the integration API (`npm run integration:client`, docs/integration.md
 * section 1): a new secret of 32 random bytes in the URL-safe base64 alphabet (letters, digits, `-` and
 * `_`: nothing HTTP Basic's form encoding changes) and the client's INTEGRATION_CLIENTS entry, holding
 * only the secret's SHA-256; or, for a client that signs assertions (private_key_jwt), its public key as
 * a JWK. A value it makes is checked as the portal checks INTEGRATION_CLIENTS at start.
 */
import { createHash, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { integrationScopes, type IntegrationScope } from '@portal/contracts/call';
import { ConfigError, parseIntegrationClients } from '../../config';

/** A client's entry, as INTEGRATION_CLIENTS takes it. */
interface ClientEntry {
  clientId: string;
  scopes: IntegrationScope[];
  secretSha256?: string | string[];
  jwks?: { keys: JWK[] };
  rateLimitPerMinute?: number;
}

export interface RegisteredClient {
  entry: ClientEntry;
  /** The new secret, for a client authenticating with one; shown once and never stored. */
  secret?: string;
  /** INTEGRATION_CLIENTS with the client in it, when a current value was given. */
  clients?: ClientEntry[];
}

export class UsageError extends Error {}

/** 32 random bytes in the URL-safe base64 alphabet (43 characters, no padding). */
function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The public key of a PEM file or a JWK (set), as a JWK with a thumbprint `kid`. Refuses private keys. */
async function publicJwk(text: string): Promise<JWK> {
  let jwk: JWK;
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: { keys?: JWK[] } & JWK;
    try {
      parsed = JSON.parse(trimmed) as { keys?: JWK[] } & JWK;
    } catch {
      throw new UsageError('The public key file is neither PEM nor JSON.');
    }
    const keys = parsed.keys ?? [parsed];
    if (keys.length !== 1) throw new UsageError('Give one key: the JWK set holds ' + keys.length + '.');
    jwk = keys[0]!;
    if ('d' in jwk) throw new UsageError('That JWK is a private key: give its public part only.');
  } else {
    let isPrivate = false;
    try {
      createPrivateKey(trimmed);
      isPrivate = true;
    } catch {
      // Not a private key: good.
    }
    if (isPrivate) {
      throw new UsageError(
        'That file holds a private key: keep it with the client, and give its public key ' +
          '(openssl pkey -in key.pem -pubout -out public.pem).',
      );
    }
    try {
      jwk = createPublicKey(trimmed).export({ format: 'jwk' }) as JWK;
    } catch {
      throw new UsageError('The public key file holds no public key the portal can read (PEM or JWK).');
    }
  }
  if (jwk.kty !== 'EC' && jwk.kty !== 'RSA' && jwk.kty !== 'OKP') {
    throw new UsageError(`A ${String(jwk.kty)} key cannot sign assertions: use an EC (P-256) or RSA key.`);
  }
  const { kid, use: _use, key_ops: _ops, ...material } = jwk;
  return { ...material, kid: kid ?? (await calculateJwkThumbprint(material)), use: 'sig' };
}

/** Registers a client: its entry, its new secret (none for a public key), and the new configuration. */
export async function registerIntegrationClient(options: {
  name: string;
  scopes: string[];
  publicKey?: string;
  rateLimitPerMinute?: number;
  rotate?: boolean;
  /** The current INTEGRATION_CLIENTS, if any. */
  current?: string;
}): Promise<RegisteredClient> {
  const unknown = options.scopes.filter((s) => !(integrationScopes as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown scope ${unknown.join(', ')}: choose from ${integrationScopes.join(', ')}.`);
  }
  const current: ClientEntry[] = options.current ? (JSON.parse(options.current) as ClientEntry[]) : [];
  if (!Array.isArray(current)) throw new UsageError('INTEGRATION_CLIENTS is not a JSON array.');
  const held = current.find((c) => c.clientId === options.name);
  let entry: ClientEntry;
  let secret: string | undefined;

  if (options.rotate) {
    if (!held) throw new UsageError(`--rotate: ${options.name} is not in INTEGRATION_CLIENTS.`);
    if (!held.secretSha256)
      throw new UsageError(`--rotate: ${options.name} signs assertions; it has no secret.`);
    const hashes = [held.secretSha256].flat();
    if (hashes.length >= 3) {
      throw new UsageError(
        `--rotate: ${options.name} has three secrets already: remove the oldest hash first.`,
      );
    }
    secret = newClientSecret();
    entry = { ...held, secretSha256: [...hashes, sha256(secret)] };
  } else {
    if (held) {
      throw new UsageError(
        `${options.name} is in INTEGRATION_CLIENTS already: --rotate gives it a new secret beside the old.`,
      );
    }
    if (options.scopes.length === 0) throw new UsageError('Give its scopes: --scopes customers.write,...');
    entry = { clientId: options.name, scopes: [...new Set(options.scopes)] as IntegrationScope[] };
    if (options.publicKey !== undefined) entry.jwks = { keys: [await publicJwk(options.publicKey)] };
    else {
      secret = newClientSecret();
      entry.secretSha256 = sha256(secret);
    }
    if (options.rateLimitPerMinute !== undefined) entry.rateLimitPerMinute = options.rateLimitPerMinute;
  }

  const clients = held ? current.map((c) => (c === held ? entry : c)) : [...current, entry];
  // As the portal checks it at start: a value this prints is one the portal takes.
  try {
    parseIntegrationClients(JSON.stringify(clients));
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  return { entry, ...(secret ? { secret } : {}), ...(options.current ? { clients } : {}) };
}

/** What the command prints: the secret once, the entry, the new configuration and a token request. */
export function describeRegistration(registered: RegisteredClient, tokenUrl: string): string {
  const { entry, secret, clients } = registered;
  const lines: string[] = [];
  if (secret) {
    lines.push(
      `The secret of ${entry.clientId}, shown only now: keep it in the client's secret store. The portal holds only its SHA-256.`,
      '',
      `  ${secret}`,
      '',
    );
  }
  lines.push('Its entry in INTEGRATION_CLIENTS:', '', `  ${JSON.stringify(entry)}`, '');
  if (clients) lines.push('INTEGRATION_CLIENTS with it:', '', `  ${JSON.stringify(clients)}`, '');
  const scope = entry.scopes.join(' ');
  if (secret) {
    lines.push(
      'Once the portal runs with it, a token (its secret has no character that HTTP Basic encoding changes):',
      '',
      `  curl -s -u '${entry.clientId}:${secret}' ${tokenUrl} \\`,
      `    -d grant_type=client_credentials -d 'scope=${scope}'`,
    );
  } else {
    lines.push(
      'The client asks for a token with an assertion it signs with its private key (docs/integration.md, section 1):',
      `  iss and sub "${entry.clientId}", aud "${tokenUrl}", a fresh jti, exp a minute ahead, kid "${entry.jwks!.keys[0]!.kid}".`,
    );
  }
  return lines.join('\n');
}
