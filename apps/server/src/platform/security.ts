import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Origins of every configured service, so the SPA may call a service that lives on another host. */
function serviceOrigins(config: Config): string[] {
  return [...new Set([config.publicUrl, ...Object.values(config.baseUrls)].map((u) => new URL(u).origin))];
}

/** Headers the SPA sends on its calls (spec: call conventions) plus what Okta-style clients send. */
const allowedRequestHeaders = [
  'Authorization',
  'Content-Type',
  'Accept',
  'X-CorrelationId',
  'X-SessionId',
  'X-Requested-With',
  'X-Okta-User-Agent-Extended',
].join(', ');

/**
 * Security headers on every response (CSP with no inline script, nosniff, no framing, strict referrer
 * policy), `Cache-Control: no-store` unless a route chose its own caching (answers carry personal
 * data), CORS for the portal's own origins when a service lives on another host, and compression of
 * every compressible response.
 */
export async function installSecurity(app: FastifyInstance, config: Config) {
  const origins = serviceOrigins(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...origins],
        frameSrc: ["'self'", ...origins],
        formAction: ["'self'", ...origins],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        ...(config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Same-site rather than same-origin so a service on a sibling host (split deployment) may be read.
    crossOriginResourcePolicy: { policy: 'same-site' },
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });

  installCors(app, new Set(origins));

  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
}

/**
 * Cross-origin calls are only needed when a service's base URL points at another host than the page.
 * Only the portal's own configured origins are allowed; anything else gets no CORS headers, so the
 * browser refuses it. OpenID Connect endpoints are left to the provider library, which does its own.
 */
function installCors(app: FastifyInstance, allowed: ReadonlySet<string>) {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !allowed.has(origin)) return;
    if (request.url.includes('/oauth2/')) return;
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Credentials', 'true');
    reply.header('Access-Control-Expose-Headers', 'X-CorrelationId, Retry-After');
    reply.header('Vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      reply.header('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE');
      reply.header('Access-Control-Allow-Headers', allowedRequestHeaders);
      reply.header('Access-Control-Max-Age', '600');
      return reply.status(204).send();
    }
  });
}
