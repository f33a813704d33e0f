/**
 * Every browser storage key the portal uses, in one place (spec: access-and-session sections 2 and 3,
 * customer-data section 3). Session storage lives for the tab; local storage outlives it.
 */
export const sessionKeys = {
  /** Where the identity provider asked us to go after sign-in. */
  relayState: 'RelayState',
  /** Base64-encoded address to open after sign-in; may hold a {statusToken} placeholder. */
  redirectUrl: 'redirect_url',
  /** Path to return to after sign-in (policy, cover, documents and bills pages; failed content loads). */
  redirectAfterLogin: 'redirectAfterLogin',
  /** Id of the notification whose modal is open. */
  notificationId: 'notificationId',
  /** Sign-in journey state (status, state token, factors). */
  authState: 'authState',
  /** '1' when signed in, '0' when not. */
  authenticated: 'authenticated',
  /** Random UUID sent as X-SessionId with every call. */
  sessionId: 'sessionId',
  /**
   * A registration waiting to be completed after the first sign-in: `{oktaUserId, stateToken, expiresAt}`
   * from the password page, sent once by the account page, dropped when expired
   * (session/registration-journey.ts, docs/decisions/007).
   */
  registrationCompletion: 'registrationCompletion',
  /** The signed-in customer's data with the time it was read (spec customer-data §7 and §9, userCacheTTL). */
  userData: 'userData',
} as const;

export const localKeys = {
  /** '1' while the customer is registering. */
  registrationJourney: 'registrationJourney',
  /** Persistent random id the feature-flag service buckets experiments by. */
  experimentUserId: 'experimentUserId',
} as const;

export type SessionKey = (typeof sessionKeys)[keyof typeof sessionKeys];
export type LocalKey = (typeof localKeys)[keyof typeof localKeys];

/*
 * Storage can throw (Safari private mode, storage disabled by policy, quota). The portal must keep
 * working without it, so every access goes through these helpers.
 */
function area(kind: 'session' | 'local'): Storage | undefined {
  try {
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return undefined;
  }
}

export function readSession(key: SessionKey): string | null {
  try {
    return area('session')?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeSession(key: SessionKey, value: string): void {
  try {
    area('session')?.setItem(key, value);
  } catch {
    // Storage full or disabled: the value simply isn't remembered.
  }
}

export function removeSession(key: SessionKey): void {
  try {
    area('session')?.removeItem(key);
  } catch {
    // Nothing to remove when storage is unavailable.
  }
}

export function readLocal(key: LocalKey): string | null {
  try {
    return area('local')?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeLocal(key: LocalKey, value: string): void {
  try {
    area('local')?.setItem(key, value);
  } catch {
    // Storage full or disabled: the value simply isn't remembered.
  }
}

export function removeLocal(key: LocalKey): void {
  try {
    area('local')?.removeItem(key);
  } catch {
    // Nothing to remove when storage is unavailable.
  }
}
