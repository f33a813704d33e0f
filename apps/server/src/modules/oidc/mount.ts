import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { errors } from '../../platform/oidc-library';
import { writeAudit } from '../../platform/audit';
import { apiAudience, bearerToken, PORTAL_SCOPE } from '../../platform/auth-guard';
import type { OidcContext } from './context';
import { asTokenRequest } from './adapter';
import { identityPort, type IdentityUser } from './identity-port';
import { newDeviceEmail } from '../identity';
import { notifier } from '../../platform/notifier';
import { browserKey, describeBrowser, maskNetwork, noteSignInBrowser } from './sign-in-sessions';
import { issuerPath, OIDC_ROUTES, PORTAL_CLIENT_ID } from './provider';

/** Koa reads the mount point from `originalUrl` when building its own URLs. */
type MountedRequest = IncomingMessage & { originalUrl?: string; body?: Buffer | string };

/**
 * An authorize request carrying a sessionToken is a fresh sign-in (Okta's `sessionToken` parameter):
 * whatever `prompt` says, and whatever session the browser already has, the provider must run its login
 * step, where the token is redeemed. `prompt=none` is therefore replaced by `prompt=login`.
 */
function forceLoginForSessionToken(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  if (!params.has('sessionToken')) return url;
  params.set('prompt', 'login');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Clients without a secret (token_endpoint_auth_method none). */
const PUBLIC_CLIENTS = new Set([PORTAL_CLIENT_ID]);
const BODY_LIMIT = 56 * 1024;

/**
 * The public client named by `Authorization: Basic` with no secret: base64 of `client_id` or `client_id:`,
 * what okta-auth-js sends to /v1/revoke and /v1/introspect and Okta accepts. Undefined for anything else
 * (a real secret, another client, another scheme), which the provider then judges itself.
 */
function publicClientOfBasic(header: string | undefined): string | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = colon === -1 ? decoded : decoded.slice(0, colon);
  const secret = colon === -1 ? '' : decoded.slice(colon + 1);
  let clientId: string;
  try {
    clientId = decodeURIComponent(id);
  } catch {
    return undefined;
  }
  return secret === '' && PUBLIC_CLIENTS.has(clientId) ? clientId : undefined;
}

/** The request body, whether still in the stream or already read by a platform hook (as `req.body`). */
async function bodyOf(req: MountedRequest): Promise<string | undefined> {
  if (req.body !== undefined) return String(req.body);
  if (!req.readable) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * A public client authenticating to revocation or introspection with `Basic base64(client_id:)` is
 * handed to the provider as what it is, a client without a secret naming itself in the body
 * (token_endpoint_auth_method none). The body, once read, goes to the provider as `req.body` (which
 * oidc-provider takes when the stream has been consumed).
 */
async function normalisePublicClientAuth(req: MountedRequest): Promise<void> {
  const clientId = publicClientOfBasic(req.headers.authorization);
  if (!clientId) return;
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) return;
  const body = await bodyOf(req);
  if (body === undefined) return;
  const form = new URLSearchParams(body);
  if (form.has('client_id') && form.get('client_id') !== clientId) {
    req.body = body;
    return;
  }
  form.set('client_id', clientId);
  req.body = form.toString();
  req.headers['content-length'] = String(Buffer.byteLength(req.body));
  delete req.headers.authorization;
}

/**
 * Revocation of one of our access tokens (okta-auth-js `revokeAccessToken`, and so `signOut`). They are
 * JWTs the APIs verify locally until they expire, as Okta's are; the library refuses to revoke structured
 * tokens (400 unsupported_token_type), where Okta answers 200. Answered 200 here when the token is one we
 * signed for the client naming itself; revocation ends nothing for it (sign-out ends the refresh tokens).
 * True when answered.
 */
async function revokeAccessTokenOfOurs(ctx: OidcContext, req: MountedRequest, res: ServerResponse) {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) return false;
  const body = await bodyOf(req);
  if (body === undefined) return false;
  req.body = body;
  const form = new URLSearchParams(body);
  const token = form.get('token') ?? '';
  const clientId = form.get('client_id');
  if (!clientId || !PUBLIC_CLIENTS.has(clientId) || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return false;
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, (await ctx.services.oidc.keys()).localKeySet, {
      issuer: ctx.services.oidc.issuer,
      typ: 'at+jwt',
      // Expired or not, a token of ours is answered alike (RFC 7009: 200 for a token no longer valid).
      currentDate: new Date(0),
      clockTolerance: Number.MAX_SAFE_INTEGER,
    }));
  } catch {
    return false;
  }
  if (payload['client_id'] !== clientId) return false;
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin === new URL(ctx.config.publicUrl).origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  }
  res.statusCode = 200;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
  return true;
}

function userinfoError(res: ServerResponse, status: 401 | 403, error: string, description: string) {
  res.statusCode = status;
  res.setHeader(
    'WWW-Authenticate',
    `Bearer realm="portal", error="${error}", error_description="${description}"${status === 403 ? ', scope="openid"' : ''}`,
  );
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify({ error, error_description: description }));
}

/**
 * The claims each granted scope allows (OpenID Connect Core 5.4, as Okta answers): `openid` the subject
 * only; `profile` the names; `email` the address (proved by the activation link); the portal's scope the
 * customer id. No phone scope is offered: the identity service keeps the numbers as second factors only.
 */
const claimsByScope = new Map<string, (user: IdentityUser) => Record<string, unknown>>([
  ['openid', (user) => ({ sub: user.id })],
  [
    'profile',
    (user) => ({
      name: `${user.firstName} ${user.lastName}`.trim(),
      given_name: user.firstName,
      family_name: user.lastName,
    }),
  ],
  ['email', (user) => ({ email: user.login, email_verified: true })],
  [PORTAL_SCOPE, (user) => ({ customerId: user.customerId })],
]);

/**
 * `{issuer}/v1/userinfo` for the access tokens we issue. They are JWTs for the portal's APIs (the
 * library's own userinfo accepts neither JWT access tokens nor tokens with a resource audience), so the
 * token is verified here as the API guard does (keys, issuer, audience, type, expiry on the injected
 * clock) and must carry `openid`, as at Okta. Answers the claims of the token's scopes only.
 */
async function userinfo(ctx: OidcContext, request: FastifyRequest, res: ServerResponse) {
  const origin = request.headers.origin;
  res.setHeader('Access-Control-Allow-Origin', typeof origin === 'string' ? origin : '*');
  res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
  res.setHeader('Vary', 'Origin');
  const token = bearerToken(request);
  if (!token) return userinfoError(res, 401, 'invalid_token', 'no access token provided');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, (await ctx.services.oidc.keys()).localKeySet, {
      issuer: ctx.services.oidc.issuer,
      audience: apiAudience(ctx.config),
      typ: 'at+jwt',
      currentDate: ctx.clock.now(),
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) {
      return userinfoError(res, 401, 'invalid_token', 'invalid token provided');
    }
    throw error;
  }
  const scopes = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [];
  if (!scopes.includes('openid')) {
    return userinfoError(res, 403, 'insufficient_scope', 'access token missing openid scope');
  }
  const user = await identityPort(ctx).getUser(String(payload['sub']));
  if (!user?.active || !user.customerId) {
    return userinfoError(res, 401, 'invalid_token', 'invalid token provided');
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  const claims: Record<string, unknown> = {};
  for (const scope of scopes) Object.assign(claims, claimsByScope.get(scope)?.(user));
  res.end(JSON.stringify(claims));
}

/**
 * Mounts the provider (a Koa app) under {identity}/oauth2/default. The raw request is taken over in
 * onRequest, before Fastify reads the body, because the provider parses its own bodies; the mount prefix
 * is stripped from req.url as the provider expects. The interaction step (the provider's login prompt)
 * is answered here without any page: the sessionToken is redeemed, or the request ends with login_required.
 */
export async function mountProvider(app: FastifyInstance, ctx: OidcContext, provider: Provider) {
  const prefix = issuerPath(ctx);
  const localPrefix = '/oauth2/default';
  const issuer = new URL(provider.issuer);
  const callback = provider.callback();

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        const arrivedAt = ctx.clock.now();
        reply.hijack();
        const req = request.raw as MountedRequest;
        const res = reply.raw;
        // Headers already set by our platform hooks (correlation id, CORS) go out with the provider's answer.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined && !res.headersSent) res.setHeader(name, value as string | string[]);
        }
        const original = req.url ?? '/';
        const at = original.indexOf(prefix);
        let local = at === -1 ? original : original.slice(at + prefix.length);
        if (!local.startsWith('/')) local = `/${local}`;
        if (local.startsWith(`${OIDC_ROUTES.authorization}?`) && req.method === 'GET') {
          local = forceLoginForSessionToken(local);
        }
        const path = local.split('?')[0]!;
        try {
          if (path === OIDC_ROUTES.userinfo && (req.method === 'GET' || req.method === 'POST')) {
            await userinfo(ctx, request, res);
            return;
          }
          if (
            req.method === 'POST' &&
            (path === OIDC_ROUTES.revocation || path === OIDC_ROUTES.introspection)
          ) {
            await normalisePublicClientAuth(req);
            if (path === OIDC_ROUTES.revocation && (await revokeAccessTokenOfOurs(ctx, req, res))) return;
          }
          const interaction = /^\/interaction\/([A-Za-z0-9_-]+)\/?$/.exec(path);
          if (interaction) {
            await finishInteraction(ctx, provider, req, res, interaction[1]!, request);
            return;
          }
          // The provider builds its endpoint URLs from the request; make that the configured issuer's
          // origin, never whatever Host header a caller sent (provider.proxy is on for this reason).
          req.headers['x-forwarded-host'] = issuer.host;
          req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
          // The provider takes the leftmost X-Forwarded-For entry: hand it only the address Fastify
          // worked out from the trusted proxies (the socket's own when none is trusted).
          req.headers['x-forwarded-for'] = request.ip;
          req.originalUrl = `${original.slice(0, at === -1 ? 0 : at)}${prefix}${local}`;
          req.url = local;
          // Token requests know when they arrived: losers of a redemption race are told from replays.
          if (path === OIDC_ROUTES.token) await asTokenRequest(arrivedAt, async () => callback(req, res));
          else await callback(req, res);
        } catch (error) {
          // Reply is hijacked: Fastify's error handler cannot answer for us.
          request.log.error({ err: error }, 'openid provider request failed');
          if (!res.headersSent)
            plainError(res, 500, 'Something went wrong on our side. Please try again later.');
          else res.end();
        }
      });
      // Fastify only runs the scope's hooks for requests that match one of its routes.
      const never = async () => undefined;
      scope.all('/', never);
      scope.all('/*', never);
    },
    { prefix: localPrefix },
  );
}

function plainError(res: ServerResponse, status: number, message: string) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(
    `<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8"><title>Sign-in could not continue</title></head><body><main><h1>Sign-in could not continue</h1><p>${message}</p></main></body></html>`,
  );
}

/**
 * The provider's interaction step. The first-party client's grants are automatic (loadExistingGrant), so
 * the only prompt that reaches here is login: it succeeds with a valid one-time sessionToken from the
 * authorize request and otherwise resolves to login_required back at the client's redirect_uri.
 */
async function finishInteraction(
  ctx: OidcContext,
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  request: FastifyRequest,
) {
  const correlationId = request.correlationId;
  let details: Awaited<ReturnType<Provider['interactionDetails']>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch (error) {
    if (error instanceof errors.SessionNotFound) {
      return plainError(res, 400, 'This sign-in link has expired. Please start again.');
    }
    throw error;
  }
  if (details.uid !== uid) return plainError(res, 400, 'This sign-in link has expired. Please start again.');

  let result: InteractionResults;
  if (details.prompt.name === 'login') {
    const token = details.params['sessionToken'];
    const user =
      typeof token === 'string' && token ? await identityPort(ctx).consumeSessionToken(token) : null;
    if (user) {
      result = {
        login: {
          accountId: user.userId,
          amr: user.amr,
          ts: Math.floor(ctx.clock.now().getTime() / 1000),
        },
      };
    } else {
      result = {
        error: 'login_required',
        error_description:
          typeof token === 'string' ? 'The sessionToken is invalid or already used.' : 'Sign-in is required.',
      };
    }
    await writeAudit(ctx.db, {
      source: 'server',
      eventId: 'oidc.authorize',
      customerId: user?.customerId ?? null,
      onBehalfOf: user?.customerId ?? null,
      correlationId,
      isSuccess: Boolean(user),
      failureReason: user ? null : typeof token === 'string' ? 'invalid sessionToken' : 'no sessionToken',
      details: user ? { amr: user.amr } : {},
    });
    if (user) await tellOfNewBrowser(ctx, request, user);
  } else {
    // Not expected for the first-party client; never show a page, tell the client instead.
    result = {
      error: 'interaction_required',
      error_description: `The ${details.prompt.name} step is not available.`,
    };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

/**
 * A completed sign-in from a browser (browser and operating system family) not seen on this account in
 * KNOWN_BROWSER_DAYS emails the customer (issue 26 point 5, decision 025). The account's very first
 * recorded sign-in (after registration) does not. A failure here is logged and does not stop the sign-in.
 */
async function tellOfNewBrowser(
  ctx: OidcContext,
  request: FastifyRequest,
  user: { userId: string; customerId: string },
) {
  try {
    const at = ctx.clock.now();
    const description = describeBrowser(request.headers['user-agent']);
    const seen = await noteSignInBrowser(ctx.db, user.customerId, browserKey(description), at);
    if (seen !== 'new') return;
    const person = await identityPort(ctx).getUser(user.userId);
    if (!person) return;
    const network = maskNetwork(request.ip);
    await ctx.db.transaction(async (tx) => {
      await writeAudit(tx, {
        source: 'server',
        eventId: 'identity.signin.new_device',
        customerId: user.customerId,
        onBehalfOf: user.customerId,
        correlationId: request.correlationId,
        isSuccess: true,
        occurredAt: at,
        details: { browser: description.browser, os: description.os, network },
      });
      await notifier(ctx).enqueue(
        newDeviceEmail(
          person.login,
          { firstName: person.firstName, customerId: user.customerId },
          ctx.config.publicUrl,
          { at, ...description, network },
        ),
        { tx, log: request.log },
      );
    });
  } catch (error) {
    request.log.warn({ err: error }, 'the new-browser check failed; the sign-in goes on');
  }
}
