import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import {
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Config } from '../config';
import { HttpError, notFound } from './errors';
import { instanceOf, type PlatformContext } from './module';
import type { RevocationsPort, SessionState } from './revocations';

/** The portal's own authorization scope: every customer data call needs an access token carrying it. */
export const PORTAL_SCOPE = 'portal.customer';

/** Issuer of the portal's tokens, laid out like Okta's default authorization server. */
export function oidcIssuer(config: Config): string {
  return `${config.baseUrls.identity}/oauth2/default`;
}

/** The audience of every access token for the portal's APIs (`aud`). */
export function apiAudience(config: Config): string {
  return `${config.publicUrl}/api`;
}

/** Algorithms the provider signs access tokens with; anything else (notably `none` and HMAC) is refused. */
const ACCESS_TOKEN_ALGORITHMS = ['ES256', 'RS256', 'PS256', 'EdDSA'];

/** Who is calling, from a verified access token. */
export interface AuthenticatedCustomer {
  /** The customer whose data the token may read (claim `customerId`). */
  customerId: string;
  /** Who acts: the customer's own id for self-service (claim `onBehalfOf`). */
  onBehalfOf: string;
  /** The identity user id (`sub`). */
  sub: string;
  /** The sign-in grant the token was issued under (claim `gid`), when the token carries one. */
  grantId?: string;
  /**
   * Set for the token of a shared view (claim `view`, issue 41 point 6): the contact centre sees the
   * customer's portal read only, `onBehalfOf` naming the staff member. Every write is refused but the
   * view's own (contracts: `sharedView`).
   */
  sharedView?: { viewId: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the customer guard on routes that use it. */
    customer?: AuthenticatedCustomer;
  }
}

/**
 * Where the verification keys come from. The identity module registers the in-process key set when it
 * runs in this instance; otherwise the guard fetches the published JWKS (cached by jose).
 */
export type KeySource = JWTVerifyGetKey;

const remoteKeySources = new Map<string, KeySource>();

/**
 * What the guard keeps once per app (ModuleContext.instance): the in-process key set, the tokens it has
 * verified, what it knows of sign-ins, and the port it asks about them.
 */
interface GuardState {
  localKeySource?: () => KeySource;
  verified: Map<string, VerifiedToken>;
  sessions: SessionChecks;
  /** Grants announced as ended that this instance had no answer for (see noteEnded). */
  justEnded: Map<string, number>;
  /** When each session's "last used" was last moved on from here. */
  uses: Map<string, number>;
  revocations?: RevocationsPort;
}
const states = new WeakMap<object, GuardState>();

function guardOf(ctx: PlatformContext): GuardState {
  const instance = instanceOf(ctx);
  let state = states.get(instance);
  if (!state) {
    state = { verified: new Map(), sessions: new Map(), justEnded: new Map(), uses: new Map() };
    states.set(instance, state);
  }
  return state;
}

/** Called by the OpenID module: tokens are verified against its key set without an HTTP round trip. */
export function registerLocalKeySource(ctx: PlatformContext, source: () => KeySource): void {
  guardOf(ctx).localKeySource = source;
}

/** The provider's verification keys: in-process when identity runs here, else its published JWKS. */
function keySourceFor(ctx: PlatformContext): KeySource {
  const local = guardOf(ctx).localKeySource;
  if (local && ctx.config.modules.has('identity')) return local();
  const url = `${oidcIssuer(ctx.config)}/v1/keys`;
  let remote = remoteKeySources.get(url);
  if (!remote) {
    // Keys rotate rarely: cache ten minutes, refetch at most every 30 s when an unknown kid shows up.
    remote = createRemoteJWKSet(new URL(url), {
      cacheMaxAge: 10 * 60_000,
      cooldownDuration: 30_000,
      timeoutDuration: 5_000,
    });
    remoteKeySources.set(url, remote);
  }
  return remote;
}

const REALM = 'realm="portal"';

function invalidToken(description: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', 'Your session has ended. Please sign in again.', undefined, {
    'WWW-Authenticate': `Bearer ${REALM}, error="invalid_token", error_description="${description}"`,
  });
}

/**
 * Tokens already verified, so each request does not check the same signature again (about 0.2 ms of CPU a
 * request, decision 010). Whether its sign-in session still lives is checked apart (assertSessionLive), so a
 * token taken from here is exactly as good as one verified again: it is kept no longer than
 * its `exp` (against the injected clock, as jose checks it), nor before its `nbf`, and at most
 * VERIFIED_TOKEN_TTL_MS (a key set is read once per process, or fetched again every ten minutes by an
 * instance without the identity module, so a withdrawn key is not trusted any longer than before).
 * Keyed by the SHA-256 of the token (the token itself is not kept), one cache per app, least recently
 * used dropped first. Only successes are kept: a refused token is checked again each time.
 */
const VERIFIED_TOKEN_TTL_MS = 2 * 60_000;
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

interface VerifiedToken {
  customer: AuthenticatedCustomer;
  /** `exp` and `nbf` in seconds since the epoch (nbf 0 when the token has none). */
  exp: number;
  nbf: number;
  /** When this entry stops being trusted (clock milliseconds). */
  until: number;
}

function verifiedTokenCache(ctx: PlatformContext): Map<string, VerifiedToken> {
  return guardOf(ctx).verified;
}

/**
 * Verifies a bearer access token: signature against the provider's keys, `iss`, `aud`, `exp`/`nbf`
 * against the injected clock, type `at+jwt`, the portal scope and the customer claims.
 * Throws HttpError 401/403/503 in our envelope. A token verified before is taken from a cache while it is
 * valid (see VerifiedToken): the same answer, without checking its signature again.
 */
export async function verifyAccessToken(ctx: PlatformContext, token: string): Promise<AuthenticatedCustomer> {
  const cache = verifiedTokenCache(ctx);
  const key = createHash('sha256').update(token).digest('base64url');
  const nowMs = ctx.clock.now().getTime();
  const nowSec = Math.floor(nowMs / 1000);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    if (nowMs < hit.until && nowSec < hit.exp && nowSec >= hit.nbf) {
      cache.set(key, hit); // most recently used last
      await assertSessionLive(ctx, hit.customer, nowMs);
      return { ...hit.customer };
    }
  }
  const { customer, exp, nbf } = await verifyAccessTokenNow(ctx, token);
  await assertSessionLive(ctx, customer, nowMs);
  if (cache.size >= VERIFIED_TOKEN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, { customer, exp, nbf, until: nowMs + VERIFIED_TOKEN_TTL_MS });
  return { ...customer };
}

/**
 * An access token is good only while its sign-in lives: signing out, a password change or reset (which
 * end every other session) and ending a session delete its grant, and from then on its access tokens are
 * refused on every instance, not only when they expire (issue 26; decision 005 amended). The grant is read
 * from the provider's store (PostgreSQL, shared by every instance), and a live answer is trusted for
 * SESSION_CHECK_TTL_MS, so a token of an ended session is refused everywhere within that time while a busy
 * session costs two primary-key reads a second per instance (500 ms: so a sign-out elsewhere
 * reaches every instance well within a second, issue 26). An ended grant never comes back, so that
 * answer is kept. Tokens without `gid` (another provider's, such as a real Okta org's) are not checked here.
 * Since issue 38 a deleted grant is also announced to every instance as its deletion commits
 * (installTokenGuard), so the half-second is only the bound when that announcement is lost.
 */
const SESSION_CHECK_TTL_MS = 500;
const SESSION_CHECK_CACHE_SIZE = 10_000;

/**
 * What is known of a grant: live (until `until`), ended or expired (RevocationsPort). The last two never
 * change; each says so in the refusal, so the browser can tell the customer what happened (issue 38).
 */
type SessionChecks = Map<string, { state: SessionState; until: number }>;

function remember(cache: SessionChecks, grantId: string, state: SessionState, until: number) {
  cache.delete(grantId);
  if (cache.size >= SESSION_CHECK_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(grantId, { state, until });
}

/**
 * Grants announced as ended that this instance had no answer for, kept for JUST_ENDED_MS: a read of one
 * that began before the announcement cannot then call it live.
 */
const JUST_ENDED_MS = 5000;
const JUST_ENDED_SIZE = 1000;

function noteEnded(ctx: PlatformContext, grantId: string, nowMs: number) {
  const ended = guardOf(ctx).justEnded;
  ended.delete(grantId);
  if (ended.size >= JUST_ENDED_SIZE) ended.delete(ended.keys().next().value!);
  ended.set(grantId, nowMs + JUST_ENDED_MS);
}

function wasJustEnded(ctx: PlatformContext, grantId: string, nowMs: number): boolean {
  const until = guardOf(ctx).justEnded.get(grantId);
  return until !== undefined && nowMs < until;
}

/** The refusal of a token whose sign-in is no more, saying which way it went. */
const sessionGone = (state: Exclude<SessionState, 'live'>) =>
  invalidToken(state === 'ended' ? 'The sign-in session has ended' : 'The sign-in session has expired');

/**
 * Gives the guard the port it asks about sign-ins (the module that issues them, through the composition),
 * and listens for sign-ins ended anywhere: every instance hears of one as its ending commits and refuses
 * its tokens from then on, not only once the half-second check runs out. A customer signed out
 * everywhere, or erased by the insurer, is refused on the very next call to any instance (issue 38). The
 * check stays as the fallback for an announcement lost with the listening connection; a gap drops every
 * remembered answer, so each sign-in is read again.
 */
export async function installTokenGuard(
  app: FastifyInstance,
  ctx: PlatformContext,
  revocations: RevocationsPort | undefined,
): Promise<void> {
  const state = guardOf(ctx);
  state.revocations = revocations;
  const unlisten = await revocations?.watch(
    (grantIds) => {
      const nowMs = ctx.clock.now().getTime();
      for (const grantId of grantIds) {
        // A grant this instance has an answer for is ended from now on. Any other is read from the store
        // when its token next comes, and found gone; it is only noted for a moment, for a read already on
        // its way (so a purge of a day's expired grants displaces no answer this instance holds).
        if (state.sessions.has(grantId)) remember(state.sessions, grantId, 'ended', Infinity);
        else noteEnded(ctx, grantId, nowMs);
      }
    },
    () => state.sessions.clear(),
  );
  if (unlisten) app.addHook('onClose', async () => unlisten());
}

async function assertSessionLive(ctx: PlatformContext, customer: AuthenticatedCustomer, nowMs: number) {
  const grantId = customer.grantId;
  const { revocations, sessions: cache } = guardOf(ctx);
  if (!grantId || !revocations) return;
  const known = cache.get(grantId);
  if (known && (known.state !== 'live' || nowMs < known.until)) {
    if (known.state !== 'live') throw sessionGone(known.state);
    await noteSessionUse(ctx, grantId, nowMs);
    return;
  }
  let state = await revocations.sessionState(grantId, new Date(nowMs));
  // A grant announced as ended while this read was on its way stays ended (the read may predate it).
  if (cache.get(grantId)?.state === 'ended' || wasJustEnded(ctx, grantId, nowMs)) state = 'ended';
  remember(cache, grantId, state, state === 'live' ? nowMs + SESSION_CHECK_TTL_MS : Infinity);
  if (state !== 'live') throw sessionGone(state);
  await noteSessionUse(ctx, grantId, nowMs);
}

/**
 * "Last used" of the session under "Where you're signed in" (decision 025): moved on at most once a
 * minute per session and instance. A failure only leaves the time older: it never refuses the request.
 */
const SESSION_USE_INTERVAL_MS = 60_000;

async function noteSessionUse(ctx: PlatformContext, grantId: string, nowMs: number) {
  const { uses: noted, revocations } = guardOf(ctx);
  const last = noted.get(grantId);
  if (last !== undefined && nowMs - last < SESSION_USE_INTERVAL_MS && nowMs >= last) return;
  noted.delete(grantId);
  if (noted.size >= SESSION_CHECK_CACHE_SIZE) noted.delete(noted.keys().next().value!);
  noted.set(grantId, nowMs);
  await revocations?.noteUse(grantId, new Date(nowMs));
}

/**
 * Verifies an access token of our provider for one audience: signature against the provider's keys,
 * `iss`, `aud`, `exp`/`nbf` against the injected clock, type `at+jwt` and the claims required. An expired
 * or invalid token throws `invalid(description)`; keys that cannot be fetched are a 503 (our fault).
 */
export async function verifyProviderToken(
  ctx: PlatformContext,
  token: string,
  audience: string,
  requiredClaims: string[],
  invalid: (description: string) => HttpError,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, keySourceFor(ctx), {
      issuer: oidcIssuer(ctx.config),
      audience,
      algorithms: ACCESS_TOKEN_ALGORITHMS,
      typ: 'at+jwt',
      currentDate: ctx.clock.now(),
      requiredClaims,
    });
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw invalid('The access token expired');
    if (
      error instanceof joseErrors.JWKSTimeout ||
      error instanceof joseErrors.JWKSInvalid ||
      (error instanceof Error && !(error instanceof joseErrors.JOSEError))
    ) {
      // The key set could not be fetched: our fault, not the caller's.
      throw new HttpError(
        503,
        'AUTH_UNAVAILABLE',
        'Sign-in checks are unavailable. Please try again shortly.',
        undefined,
        { 'Retry-After': '5' },
      );
    }
    throw invalid('The access token is invalid');
  }
}

async function verifyAccessTokenNow(
  ctx: PlatformContext,
  token: string,
): Promise<{ customer: AuthenticatedCustomer; exp: number; nbf: number }> {
  const payload = await verifyProviderToken(
    ctx,
    token,
    apiAudience(ctx.config),
    ['exp', 'sub'],
    invalidToken,
  );
  const scopes = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [];
  if (!scopes.includes(PORTAL_SCOPE)) {
    throw new HttpError(403, 'FORBIDDEN', 'This sign-in does not allow access to customer data.', undefined, {
      'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${PORTAL_SCOPE}"`,
    });
  }
  const customerId = payload['customerId'];
  const onBehalfOf = payload['onBehalfOf'];
  if (typeof customerId !== 'string' || !customerId || typeof onBehalfOf !== 'string' || !onBehalfOf) {
    throw invalidToken('The access token has no customer');
  }
  const grantId = payload['gid'];
  const viewId = payload['view'];
  // A shared view is always someone acting for the customer, and always bound to a grant of its own.
  if (viewId !== undefined && (typeof viewId !== 'string' || !viewId || typeof grantId !== 'string'))
    throw invalidToken('The access token is invalid');
  if (viewId !== undefined && onBehalfOf === customerId) throw invalidToken('The access token is invalid');
  return {
    customer: {
      customerId,
      onBehalfOf,
      sub: payload.sub!,
      ...(typeof grantId === 'string' ? { grantId } : {}),
      ...(typeof viewId === 'string' ? { sharedView: { viewId } } : {}),
    },
    // jose has checked both are numbers when present; exp is required.
    exp: payload.exp!,
    nbf: payload.nbf ?? 0,
  };
}

/** The bearer token of a request, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  return match?.[1];
}

/**
 * preHandler that `route()` puts on every call whose contract says `auth: true`: a valid access token is required, `request.customer` is set,
 * and a `:customerId` path parameter must be the token's customer (otherwise 404, so an outsider learns
 * nothing about other customers).
 */
export function requireCustomer(
  ctx: PlatformContext,
  options: { sharedViewWrite?: boolean } = {},
): preHandlerAsyncHookHandler {
  return async function customerGuard(request: FastifyRequest, _reply: FastifyReply) {
    const token = bearerToken(request);
    if (!token) {
      throw new HttpError(401, 'UNAUTHORIZED', 'Please sign in to continue.', undefined, {
        'WWW-Authenticate': `Bearer ${REALM}`,
      });
    }
    const customer = await verifyAccessToken(ctx, token);
    const params = request.params as Record<string, unknown> | undefined;
    const pathCustomer = params?.['customerId'];
    if (pathCustomer !== undefined && pathCustomer !== customer.customerId) throw notFound();
    // A shared view reads and never writes (issue 41 point 6): every write but the view's own is refused.
    if (customer.sharedView && !READS.has(request.method) && !options.sharedViewWrite) {
      throw new HttpError(
        403,
        'READ_ONLY_VIEW',
        'This is a read-only view of the customer’s account: nothing can be changed here.',
      );
    }
    request.customer = customer;
  };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
