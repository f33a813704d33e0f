import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseCookies, serialize } from 'cookie';
import * as oidc from 'openid-client';
import { staffRoles, type StaffRole } from '@portal/contracts/call';
import { writeAudit } from '../../platform/audit';
import { STAFF_COOKIE } from '../../platform/staff-guard';
import type { StaffProvider } from '../../config';
import type { StaffContext } from './context';
import type { StaffSessionStore } from './sessions';
import { insertSignIn, takeSignIn } from './sessions.repository';
import { mountStandInProvider, STAND_IN_CLIENT_ID } from './stand-in-idp';

/*
 * Staff sign-in (issue 41): OpenID Connect, authorization code with PKCE, at the insurer's workforce
 * provider (or the stand-in). /staff/sign-in starts it (state, nonce and verifier kept server-side for
 * ten minutes, the state also in a cookie of the browser that started it); /staff/callback checks the
 * answer, the second factor (amr or acr, STAFF_MFA) and the roles (groups mapped by STAFF_ROLE_GROUPS),
 * then starts a staff session in an HttpOnly, SameSite=Strict cookie on /staff.
 */

const SIGN_IN_COOKIE = 'portal_staff_sign_in';
const SIGN_IN_TTL_MS = 10 * 60_000;
const SCOPE = 'openid profile email groups';
/** A workforce provider that does not answer within this is a 503, not a hung sign-in. */
const PROVIDER_TIMEOUT_SECONDS = 5;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page of the console's sign-in (no script or inline style: the CSP allows neither). */
function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} - Staff console</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/staff/sign-in">Sign in again</a></p></main></body></html>`,
    );
}

/** Only a console page is a place to go back to after sign-in. */
function consolePath(value: unknown): string {
  return typeof value === 'string' && /^\/staff\/[A-Za-z0-9/_?=&%.-]*$/.test(value) && !value.includes('//')
    ? value
    : '/staff/';
}

/** The roles a staff member's groups give them. */
function rolesOf(ctx: StaffContext, claims: Record<string, unknown>): StaffRole[] {
  const raw = claims[ctx.config.staff.groupsClaim];
  const groups = Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string') : [];
  return staffRoles.filter((role) => ctx.config.staff.roleGroups[role].some((g) => groups.includes(g)));
}

/** Whether the ID token shows the second factor STAFF_MFA asks for. */
function showsSecondFactor(ctx: StaffContext, claims: Record<string, unknown>): boolean {
  const mfa = ctx.config.staff.mfa;
  if (!mfa) return true;
  if (mfa.claim === 'acr') return typeof claims['acr'] === 'string' && mfa.values.includes(claims['acr']);
  const amr = claims['amr'];
  return Array.isArray(amr) && amr.some((v) => typeof v === 'string' && mfa.values.includes(v));
}

/** The openid-client configuration of the provider, made once (a discovery for the insurer's). */
function clientConfiguration(
  app: FastifyInstance,
  ctx: StaffContext,
  provider: StaffProvider,
): () => Promise<{ config: oidc.Configuration; issuer: string }> {
  let made: Promise<{ config: oidc.Configuration; issuer: string }> | undefined;
  return () => {
    made ??= (async () => {
      if (provider.kind === 'issuer') {
        const config = await oidc.discovery(
          new URL(provider.issuer),
          provider.clientId,
          provider.clientSecret,
          undefined,
          {
            timeout: PROVIDER_TIMEOUT_SECONDS,
            ...(provider.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {}),
          },
        );
        config.timeout = PROVIDER_TIMEOUT_SECONDS;
        return { config, issuer: provider.issuer };
      }
      const standIn = await standInOf(app, ctx);
      const config = new oidc.Configuration(
        {
          issuer: standIn.issuer,
          authorization_endpoint: `${standIn.issuer}/auth`,
          token_endpoint: `${standIn.issuer}/token`,
          jwks_uri: `${standIn.issuer}/jwks`,
          id_token_signing_alg_values_supported: ['ES256'],
        },
        STAND_IN_CLIENT_ID,
        { id_token_signed_response_alg: 'ES256' },
        oidc.ClientSecretBasic(standIn.clientSecret),
      );
      oidc.allowInsecureRequests(config);
      // The stand-in is on this server: its token and key endpoints are called in-process.
      config[oidc.customFetch] = async (url, options) => {
        const target = new URL(url);
        const res = await app.inject({
          method: options.method as 'GET' | 'POST',
          url: `${target.pathname}${target.search}`,
          headers: Object.fromEntries(new Headers(options.headers).entries()),
          ...(options.body !== undefined && options.body !== null ? { payload: String(options.body) } : {}),
        });
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
        }
        return new Response(res.rawPayload, { status: res.statusCode, headers });
      };
      return { config, issuer: standIn.issuer };
    })().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

const standIns = new WeakMap<FastifyInstance, ReturnType<typeof mountStandInProvider>>();
function standInOf(app: FastifyInstance, ctx: StaffContext) {
  let standIn = standIns.get(app);
  if (!standIn) standIns.set(app, (standIn = mountStandInProvider(app, ctx)));
  return standIn;
}

/** Mounts /staff/sign-in and /staff/callback (and the stand-in provider when it is the one). */
export async function signInRoutes(app: FastifyInstance, ctx: StaffContext, sessions: StaffSessionStore) {
  const provider = ctx.config.staff.provider;
  if (!provider) return;
  if (provider.kind === 'stand-in') await standInOf(app, ctx);
  const configuration = clientConfiguration(app, ctx, provider);
  const secure = ctx.config.publicUrl.startsWith('https:');
  const redirectUri = `${ctx.config.publicUrl}/staff/callback`;

  const unavailable = (reply: FastifyReply) =>
    page(
      reply.header('retry-after', '30'),
      503,
      'Sign-in is not available',
      '<p>The sign-in service is not answering. Please try again in a minute.</p>',
    );

  app.get(
    '/staff/sign-in',
    async (request: FastifyRequest<{ Querystring: { returnTo?: string } }>, reply) => {
      let made;
      try {
        made = await configuration();
      } catch {
        return unavailable(reply);
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await insertSignIn(
        ctx.db,
        { state, nonce, codeVerifier, returnTo: consolePath(request.query.returnTo) },
        ctx.clock.now(),
      );
      const url = oidc.buildAuthorizationUrl(made.config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return reply
        .header(
          'set-cookie',
          serialize(SIGN_IN_COOKIE, state, {
            httpOnly: true,
            sameSite: 'lax',
            path: '/staff',
            secure,
            maxAge: SIGN_IN_TTL_MS / 1000,
          }),
        )
        .header('cache-control', 'no-store')
        .redirect(url.href, 303);
    },
  );

  app.get('/staff/callback', async (request, reply) => {
    const query = new URL(request.url, ctx.config.publicUrl).searchParams;
    const state = query.get('state') ?? '';
    let cookieState: string | undefined;
    try {
      cookieState = parseCookies(request.headers.cookie ?? '')[SIGN_IN_COOKIE];
    } catch {
      cookieState = undefined;
    }
    reply.header(
      'set-cookie',
      serialize(SIGN_IN_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/staff', secure, maxAge: 0 }),
    );
    const now = ctx.clock.now();
    const audit = (isSuccess: boolean, failureReason: string | null, details: Record<string, unknown> = {}) =>
      writeAudit(ctx.db, {
        source: 'server',
        eventId: 'staff.signin',
        isSuccess,
        failureReason,
        occurredAt: now,
        details,
      });
    // The browser that started this sign-in, and a sign-in still under way.
    const started =
      state && cookieState === state
        ? await takeSignIn(ctx.db, state, new Date(now.getTime() - SIGN_IN_TTL_MS))
        : null;
    if (!started) {
      await audit(false, 'STATE_MISMATCH');
      return page(
        reply,
        400,
        'Sign-in could not continue',
        '<p>This sign-in was not started here, or it took too long.</p>',
      );
    }
    if (query.has('error')) {
      await audit(false, 'PROVIDER_ERROR');
      return page(
        reply,
        400,
        'Sign-in could not continue',
        '<p>The sign-in service did not sign you in.</p>',
      );
    }
    let made;
    try {
      made = await configuration();
    } catch {
      return unavailable(reply);
    }
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(made.config, new URL(request.url, redirectUri), {
        pkceCodeVerifier: started.codeVerifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
    } catch (error) {
      if (
        error instanceof Error &&
        /timed? ?out|fetch failed|ECONNREFUSED/i.test(`${error.message} ${String(error.cause)}`)
      ) {
        return unavailable(reply);
      }
      await audit(false, 'INVALID_RESPONSE');
      return page(
        reply,
        400,
        'Sign-in could not continue',
        '<p>The sign-in service’s answer could not be checked.</p>',
      );
    }
    const subject = String(claims['sub']);
    if (!showsSecondFactor(ctx, claims)) {
      await audit(false, 'MFA_REQUIRED', { subject });
      return page(
        reply,
        403,
        'A second factor is needed',
        '<p>The staff console needs a sign-in with a second factor (a code, an app or a security key). Sign in again with one.</p>',
      );
    }
    const roles = rolesOf(ctx, claims);
    if (roles.length === 0) {
      await audit(false, 'NO_ROLE', { subject });
      return page(
        reply,
        403,
        'You do not have access to the staff console',
        '<p>Your account is not in a group that gives a role in the console. Ask your team leader.</p>',
      );
    }
    const name = typeof claims['name'] === 'string' ? claims['name'] : subject;
    const email = typeof claims['email'] === 'string' ? claims['email'] : '';
    const { cookieValue, row } = await sessions.start({ subject, issuer: made.issuer, name, email, roles });
    await writeAudit(ctx.db, {
      source: 'server',
      eventId: 'staff.signin',
      onBehalfOf: `staff:${subject}`,
      sessionId: row.idHash,
      isSuccess: true,
      occurredAt: now,
      details: { subject, name, roles },
    });
    return reply
      .header(
        'set-cookie',
        serialize(STAFF_COOKIE, cookieValue, {
          httpOnly: true,
          sameSite: 'strict',
          path: '/staff',
          secure,
          maxAge: Math.floor(ctx.config.staff.maxMs / 1000),
        }),
      )
      .header('cache-control', 'no-store')
      .redirect(started.returnTo, 303);
  });
}

/** The header that clears the staff session cookie. */
export function clearedStaffCookie(ctx: StaffContext): string {
  return serialize(STAFF_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/staff',
    secure: ctx.config.publicUrl.startsWith('https:'),
    maxAge: 0,
  });
}
