import type { CallDefinition, StaffRole } from '@portal/contracts/call';
import {
  getStaffSessionCall,
  getStaffSessionStatusCall,
  staffSignOutCall,
  type StaffSession,
} from '@portal/contracts/staff';
import { useSyncExternalStore } from 'react';
import type { z } from 'zod/mini';
import { ApiError, callApi, type CallOptions, type CallResult } from '../../lib/api-client';
import { signInPath } from '../lib/paths';

/*
 * The staff member's session in the console (issue 41, decision 037): a server-side session behind an
 * HttpOnly cookie on /staff, so the console holds no token, only what GET /staff/api/session says: who,
 * their roles, the CSRF token every write sends, and when the session ends. Each call the server answers
 * restarts its idle time (15 minutes by default; not the status check, readSession's `passive`), so the
 * console counts from the last call it made: the
 * idle warning (app/idle-warning.tsx) shows before that, and any 401 sends the browser to sign in again,
 * coming back to the page it was on.
 */

type AnyCall = CallDefinition<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType, Record<number, z.ZodMiniType>>;

export interface ConsoleSession {
  member: Pick<StaffSession, 'name' | 'email' | 'roles' | 'sharedViewCode'>;
  csrfToken: string;
  /** How long the session lives without a call, as the server counts it (milliseconds). */
  idleMs: number;
  /** When, on this computer's clock, it ends without another call. */
  idleEndsAt: number;
  /** When it ends whatever is done (8 hours after sign-in by default). */
  endsAt: number;
}

let current: ConsoleSession | null = null;
const listeners = new Set<() => void>();

function publish(next: ConsoleSession | null) {
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets the session here (the server's is untouched): a fresh start. */
export function forgetSession(): void {
  publish(null);
}

/** The session as the console knows it; null before it is read and after signing out. */
export function useConsoleSession(): ConsoleSession | null {
  return useSyncExternalStore(subscribe, () => current);
}

/** Whether the signed-in staff member's roles allow a call (the server checks it too). */
export function mayCall(session: Pick<ConsoleSession, 'member'> | null, call: AnyCall): boolean {
  const roles: readonly StaffRole[] = call.staffRoles ?? [];
  return Boolean(session?.member.roles.some((role) => roles.includes(role)));
}

/** Leaves the console for a page outside it (the server's sign-in); tests put their own in. */
let leave = (url: string) => window.location.assign(url);

export function setLeaveForTests(to: (url: string) => void): () => void {
  const before = leave;
  leave = to;
  return () => {
    leave = before;
  };
}

/** Sends the browser to the server's sign-in, to come back to the page it is on now. */
export function signInAgain(): void {
  const here = `${window.location.pathname}${window.location.search}`;
  const returnTo = here.startsWith('/staff/') ? here : '/staff/';
  leave(`${signInPath}?returnTo=${encodeURIComponent(returnTo)}`);
}

/** The seconds a refused call's Retry-After asked to wait (a 429, a 503), by its error. */
const retryAfters = new WeakMap<ApiError, number>();

/** How long a failed staff call asked to wait before trying again, in seconds, if it said. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof ApiError ? retryAfters.get(error) : undefined;
}

/** A call the console makes that never settles: the page is being left. */
const leaving = <T>() => new Promise<T>(() => undefined);

/**
 * Makes a staff call: a write carries the session's CSRF token; an answer restarts the idle count; a 401
 * (no session, or it ended) sends the browser to sign in again and never settles. Other failures reject
 * with the API client's errors, for the screen to say what went wrong.
 */
export async function staffCall<C extends AnyCall>(
  call: C,
  options: Omit<CallOptions<C>, 'headers' | 'credentials'> = {},
): Promise<CallResult<C>> {
  const sentAt = Date.now();
  const headers = call.method !== 'GET' && current ? { 'X-CSRF-Token': current.csrfToken } : undefined;
  let retryAfter: number | undefined;
  try {
    const result = await callApi(call, {
      ...options,
      ...(headers ? { headers } : {}),
      onHeaders: (received) => {
        const seconds = Number(received.get('Retry-After'));
        if (received.has('Retry-After') && Number.isFinite(seconds)) retryAfter = seconds;
        options.onHeaders?.(received);
      },
    });
    if (current) {
      publish({ ...current, idleEndsAt: Math.min(sentAt + current.idleMs, current.endsAt) });
    }
    return result;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      signInAgain();
      return leaving();
    }
    if (error instanceof ApiError && retryAfter !== undefined) retryAfters.set(error, retryAfter);
    throw error;
  }
}

/**
 * Reads the session (at start, and to stay signed in: both count as activity) or, `passive`, only checks
 * it (when the idle time seems over: another console tab may have kept it alive; the check itself keeps
 * nothing alive). The server's clock says how long it has left (its Date header against the answer's
 * times), so a computer whose clock is wrong still counts right.
 */
export async function readSession(options: { passive?: boolean } = {}): Promise<ConsoleSession> {
  const sentAt = Date.now();
  let serverNow: number | undefined;
  const session = await staffCall(options.passive ? getStaffSessionStatusCall : getStaffSessionCall, {
    onHeaders: (headers) => {
      const date = Date.parse(headers.get('Date') ?? '');
      if (!Number.isNaN(date)) serverNow = date;
    },
  });
  const now = serverNow ?? Date.now();
  const idleMs = Math.max(0, Date.parse(session.idleExpiresAt) - now);
  const endsAt = sentAt + Math.max(0, Date.parse(session.expiresAt) - now);
  const next: ConsoleSession = {
    member: {
      name: session.name,
      email: session.email,
      roles: session.roles,
      sharedViewCode: session.sharedViewCode,
    },
    csrfToken: session.csrfToken,
    idleMs,
    idleEndsAt: Math.min(sentAt + idleMs, endsAt),
    endsAt,
  };
  publish(next);
  return next;
}

/**
 * Signs out: the server ends the session (a session already ended counts as signed out). Rejects when the
 * server could not be asked; the console then stays as it is and says so.
 */
export async function signOutOfConsole(): Promise<void> {
  try {
    await callApi(staffSignOutCall, current ? { headers: { 'X-CSRF-Token': current.csrfToken } } : {});
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  publish(null);
}
