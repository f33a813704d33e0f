import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { parse as parseCookies } from 'cookie';
import type { StaffRole } from '@portal/contracts/call';
import { HttpError } from './errors';
import { instanceOf, type PlatformContext } from './module';

/*
 * The staff guard (issue 41): the console's calls need a staff session, with one of the call's roles,
 * and a write needs the session's CSRF token. A bearer token (a customer's or a machine client's) is never
 * a staff credential: a request carrying one is refused on every staff route, as a staff session's cookie
 * (path /staff, never sent elsewhere) is never a customer's or a client's credential.
 */

/** The staff session cookie: HttpOnly, SameSite=Strict, path /staff (Secure over HTTPS). */
export const STAFF_COOKIE = 'portal_staff';

/** The staff member behind a console call, from their session. */
export interface StaffMember {
  /** The session's id as stored (the SHA-256 of the cookie's value): what audit rows name. */
  sessionId: string;
  /** The workforce provider's subject: who, whatever their name becomes. */
  subject: string;
  name: string;
  email: string;
  roles: readonly StaffRole[];
  csrfToken: string;
}

/**
 * Checks a session cookie's value: the member while the session lives, else null. Its idle time restarts
 * unless `passive` (a check the console makes by itself, not the staff member's activity).
 */
export interface StaffSessions {
  verify(cookieValue: string, options?: { passive?: boolean }): Promise<StaffMember | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the staff guard on the console's routes. */
    staff?: StaffMember;
  }
}

const sessionsByInstance = new WeakMap<object, StaffSessions>();

/** The staff module gives the guard its sessions when it is mounted. */
export function provideStaffSessions(ctx: PlatformContext, sessions: StaffSessions): void {
  sessionsByInstance.set(instanceOf(ctx), sessions);
}

const unauthorized = () =>
  new HttpError(401, 'STAFF_SESSION_REQUIRED', 'Sign in to the staff console to continue.');
const forbidden = (message: string) => new HttpError(403, 'FORBIDDEN', message);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The staff session cookie's value of a request, if any. */
function staffCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  try {
    return parseCookies(header)[STAFF_COOKIE];
  } catch {
    return undefined;
  }
}

/**
 * A staff call's preHandler: 401 without a live session (or with any bearer token), 403 without one of
 * `roles`, and 403 for a write without the session's CSRF token or from another origin.
 */
export function requireStaff(
  ctx: PlatformContext,
  roles: readonly StaffRole[],
  options: { passive?: boolean } = {},
): preHandlerAsyncHookHandler {
  const origin = new URL(ctx.config.publicUrl).origin;
  return async (request) => {
    if (request.headers.authorization !== undefined) throw unauthorized();
    const sessions = sessionsByInstance.get(instanceOf(ctx));
    const cookie = staffCookieOf(request);
    if (!sessions || !cookie) throw unauthorized();
    const member = await sessions.verify(cookie, { passive: options.passive === true });
    if (!member) throw unauthorized();
    if (!SAFE_METHODS.has(request.method)) {
      const sentOrigin = request.headers.origin;
      if (sentOrigin !== undefined && sentOrigin !== origin)
        throw forbidden('This request came from elsewhere.');
      const token = request.headers['x-csrf-token'];
      if (typeof token !== 'string' || !sameText(token, member.csrfToken)) {
        throw forbidden('The request is missing the console’s security token. Reload the page.');
      }
    }
    if (!member.roles.some((role) => roles.includes(role))) {
      throw forbidden('Your role does not allow this.');
    }
    request.staff = member;
  };
}
