import {
  experimentUserIdKey,
  readStored,
  removeStored,
  transportKeys,
  writeStored,
} from '../lib/browser-storage';

/**
 * Every browser storage key the portal uses, in one place (spec: access-and-session sections 2 and 3,
 * customer-data section 3). Session storage lives for the tab; local storage outlives it. The keys the
 * transport needs itself are defined in lib/browser-storage.ts (lib may not import the session).
 */
export const sessionKeys = {
  /** Where the identity provider asked us to go after sign-in. */
  relayState: 'RelayState',
  /** Base64-encoded address to open after sign-in; may hold a {statusToken} placeholder. */
  redirectUrl: 'redirect_url',
  /** Path to return to after sign-in (policy, cover, documents and bills pages; failed content loads). */
  redirectAfterLogin: transportKeys.redirectAfterLogin,
  /** Id of the notification whose modal is open. */
  notificationId: 'notificationId',
  /** Sign-in journey state (status, state token, factors). */
  authState: 'authState',
  /** '1' when signed in, '0' when not. */
  authenticated: 'authenticated',
  /** Random UUID sent as X-SessionId with every call (lib/session-id.ts). */
  sessionId: transportKeys.sessionId,
  /**
   * A registration waiting to be completed after the first sign-in: `{oktaUserId, stateToken, expiresAt}`
   * from the password page, sent once by the account page, dropped when expired
   * (session/registration-journey.ts, docs/decisions/007).
   */
  registrationCompletion: 'registrationCompletion',
  /** The signed-in customer's data with the time it was read (spec customer-data §7 and §9, userCacheTTL). */
  userData: 'userData',
  /**
   * The contact centre's read-only view of this tab (issue 41 point 6): `{customerName, staffName}` for
   * the banner on every page (session/shared-view.ts).
   */
  sharedView: 'sharedView',
} as const;

export const localKeys = {
  /** '1' while the customer is registering. */
  registrationJourney: 'registrationJourney',
  /**
   * Persistent random id the feature-flag service buckets experiments by (lib/experiments.ts), mirrored in
   * the first-party cookie of the same name for the server's rendering (decision 016).
   */
  experimentUserId: experimentUserIdKey,
} as const;

export type SessionKey = (typeof sessionKeys)[keyof typeof sessionKeys];
export type LocalKey = (typeof localKeys)[keyof typeof localKeys];

export const readSession = (key: SessionKey): string | null => readStored('session', key);
export const writeSession = (key: SessionKey, value: string): void => writeStored('session', key, value);
export const removeSession = (key: SessionKey): void => removeStored('session', key);
export const readLocal = (key: LocalKey): string | null => readStored('local', key);
export const writeLocal = (key: LocalKey, value: string): void => writeStored('local', key, value);
export const removeLocal = (key: LocalKey): void => removeStored('local', key);
