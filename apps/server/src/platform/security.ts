import type { IncomingMessage, ServerResponse } from 'node:http';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
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
  const headers = helmetHeaders({
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
  // Set before the route runs, so a route may still replace one (a rendered page's own CSP).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });

  installCors(app, new Set(origins));

  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
}

/**
 * The headers helmet sets with these options, worked out once. They are the same for every request (no
 * directive depends on the request), and building helmet's middleware for each one, as its Fastify
 * plugin does, was about a tenth of the server's time under load (decision 015).
 */
function helmetHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.freeze(headers);
}

/**
 * Cross-origin calls are only needed when a service's base URL points at another host than the page.
 * Only the portal's own configured origins are allowed; anything else gets no CORS headers, so the
 * browser refuses it. OpenID Connect endpoints are left to the provider library, which does its own.
 */
function installCors(app: FastifyInstance, allowed: ReadonlySet<string>) {
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !allowed.has(origin)) return done();
    if (request.url.includes('/oauth2/')) return done();
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Credentials', 'true');
    reply.header('Access-Control-Expose-Headers', 'X-CorrelationId, Retry-After, WWW-Authenticate');
    reply.header('Vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      reply.header('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE');
      reply.header('Access-Control-Allow-Headers', allowedRequestHeaders);
      reply.header('Access-Control-Max-Age', '600');
      // Answered here: the route does not run (and done is not called).
      reply.status(204).send();
      return;
    }
    done();
  });
}
