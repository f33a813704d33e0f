import { useSyncExternalStore } from 'react';
import { readSession, removeSession, sessionKeys, writeSession } from './storage-keys';
import { parseSessionData, transition, type SessionData, type SessionEvent } from './session-machine';

/**
 * The tab's session: the authenticated flag ('1' / '0' in session storage) and the journey's session data
 * (`authState`). Both live in session storage so they survive the redirect to the identity provider and a
 * reload, and die with the tab. Every change goes through here so subscribers (header, guards, pages) see it.
 */
export interface AuthSnapshot {
  isAuthenticated: boolean;
  data: SessionData | null;
}

const listeners = new Set<() => void>();
let snapshot: AuthSnapshot = read();

function read(): AuthSnapshot {
  return {
    isAuthenticated: readSession(sessionKeys.authenticated) === '1',
    data: parseSessionData(readSession(sessionKeys.authState)),
  };
}

function sameData(a: SessionData | null, b: SessionData | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Re-reads storage and tells subscribers when something changed. */
function publish(): void {
  const next = read();
  if (next.isAuthenticated === snapshot.isAuthenticated && sameData(next.data, snapshot.data)) return;
  snapshot = next;
  for (const listener of listeners) listener();
}

/** The current session. Storage is re-read so a change made elsewhere (tests, devtools) is never missed. */
export function getAuthSnapshot(): AuthSnapshot {
  const next = read();
  if (next.isAuthenticated !== snapshot.isAuthenticated || !sameData(next.data, snapshot.data))
    snapshot = next;
  return snapshot;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sets the authenticated flag ('1' or '0'). */
export function setAuthenticated(value: boolean): void {
  writeSession(sessionKeys.authenticated, value ? '1' : '0');
  publish();
}

export function getSessionData(): SessionData | null {
  return getAuthSnapshot().data;
}

/** Replaces the session data (null removes it). Prefer applySessionEvent, which checks the transition. */
export function setSessionData(data: SessionData | null): void {
  if (data) writeSession(sessionKeys.authState, JSON.stringify(data));
  else removeSession(sessionKeys.authState);
  publish();
}

/** Moves the session through the state machine and stores the result; throws for an impossible step. */
export function applySessionEvent(event: SessionEvent): SessionData | null {
  const next = transition(getSessionData(), event);
  setSessionData(next);
  return next;
}

/** React view of the session; re-renders on every change. */
export function useAuthSnapshot(): AuthSnapshot {
  return useSyncExternalStore(subscribeAuth, getAuthSnapshot, getAuthSnapshot);
}

/** The marketing step is done (or was done before): status loggedIn (spec section 4). */
export function markLoggedIn(): void {
  const data = getSessionData();
  if (data?.status === 'marketingPreferences' || data?.status === 'loggedIn')
    applySessionEvent({ type: 'marketingDone' });
  else setSessionData({ status: 'loggedIn', ...(data?.oktaUserId ? { oktaUserId: data.oktaUserId } : {}) });
}
