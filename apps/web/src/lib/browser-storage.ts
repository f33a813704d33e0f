/*
 * Safe access to the browser's storage. Storage can throw (Safari private mode, storage disabled by
 * policy, quota); the portal must keep working without it, so every access goes through these helpers.
 * Session storage lives for the tab; local storage outlives it.
 *
 * The keys: the few that lib itself uses are here; session/storage-keys.ts lists every key the portal
 * uses (these included) and gives the typed helpers the rest of the app calls.
 */

export type StorageKind = 'session' | 'local';

/** The session storage keys the transport uses (the API client, the X-SessionId). */
export const transportKeys = {
  /** Random UUID sent as X-SessionId with every call. */
  sessionId: 'sessionId',
  /** Path to return to after sign-in (policy, cover, documents and bills pages; failed content loads). */
  redirectAfterLogin: 'redirectAfterLogin',
} as const;

/** The local storage key of the experiments (lib/experiments.ts). */
export const experimentUserIdKey = 'experimentUserId';

function area(kind: StorageKind): Storage | undefined {
  try {
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return undefined;
  }
}

export function readStored(kind: StorageKind, key: string): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(kind: StorageKind, key: string, value: string): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    // Storage full or disabled: the value simply isn't remembered.
  }
}

export function removeStored(kind: StorageKind, key: string): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    // Nothing to remove when storage is unavailable.
  }
}
