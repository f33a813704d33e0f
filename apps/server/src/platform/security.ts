import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Origins of every configured service, so the SPA may call a service that lives on another host. */
export function serviceOrigins(config: Config): string[] {
  return [...new Set([config.publicUrl, ...Object.values(config.baseUrls)].map((u) => new URL(u).origin))];
}

/**
 * Security headers on every response (CSP with no inline script, nosniff, no framing, strict referrer
 * policy) and compression of every compressible response.
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
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
}
