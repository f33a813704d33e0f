/**
 * `npm run integration:client -- NAME --scopes SCOPE[,SCOPE...]`: registers a machine client of the
 * integration API (docs/integration.md, section 1). Prints a new secret, made of 32 random bytes in the
 * URL-safe base64 alphabet (letters, digits, `-` and `_`: nothing that HTTP Basic's form encoding
 * changes), once, and the client's entry for INTEGRATION_CLIENTS holding only the secret's SHA-256.
 *
 *   --public-key FILE   the client signs assertions instead (private_key_jwt): its public key, PEM
 *                       (`openssl pkey -in key.pem -pubout`) or a JWK or JWK set; no secret is made
 *   --rate-limit N      requests a minute across every instance (default 1,200)
 *   --rotate            the client is in INTEGRATION_CLIENTS already: a second secret is added beside the
 *                       one it has (both work until the old hash is removed)
 *
 * When INTEGRATION_CLIENTS is set in the environment, the whole new value is printed too, the client
 * added (or, with --rotate, given its new hash), and checked as the portal checks it at start.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { integrationScopes } from '@portal/contracts/call';
import {
  describeRegistration,
  registerIntegrationClient,
  UsageError,
} from './modules/integration/client-registration';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(
    'Usage: npm run integration:client -- NAME --scopes SCOPE[,SCOPE...] [--public-key FILE] [--rate-limit N]\n' +
      '       npm run integration:client -- NAME --rotate   (with INTEGRATION_CLIENTS set)\n' +
      `Scopes: ${integrationScopes.join(', ')}`,
  );
  process.exit(2);
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        scopes: { type: 'string', multiple: true },
        'public-key': { type: 'string' },
        'rate-limit': { type: 'string' },
        rotate: { type: 'boolean' },
      },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) usage('Give the client one name.');
  const rateLimit = values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']);
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit >= 1)) {
    usage('--rate-limit needs a whole number of requests a minute.');
  }
  let publicKey: string | undefined;
  if (values['public-key'] !== undefined) {
    try {
      publicKey = readFileSync(values['public-key'], 'utf8');
    } catch {
      usage(`Cannot read ${values['public-key']}.`);
    }
  }
  try {
    const registered = await registerIntegrationClient({
      name: positionals[0]!,
      scopes: (values.scopes ?? []).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean),
      ...(publicKey !== undefined ? { publicKey } : {}),
      ...(rateLimit !== undefined ? { rateLimitPerMinute: rateLimit } : {}),
      ...(values.rotate ? { rotate: true } : {}),
      ...(process.env['INTEGRATION_CLIENTS'] ? { current: process.env['INTEGRATION_CLIENTS'] } : {}),
    });
    const identity =
      process.env['IDENTITY_BASE_URL'] ??
      process.env['PUBLIC_URL'] ??
      `http://localhost:${process.env['PORT'] ?? 3000}`;
    console.log(describeRegistration(registered, `${identity.replace(/\/$/, '')}/oauth2/default/v1/token`));
  } catch (error) {
    if (error instanceof UsageError || error instanceof SyntaxError) usage(error.message);
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
