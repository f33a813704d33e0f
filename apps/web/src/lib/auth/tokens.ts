import { useSyncExternalStore } from 'react';
import { InMemoryWebStorage, User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { PageInitSettings } from '@portal/contracts/page-init';
import { getPageInit } from '../page-init';
import { broadcast, onCrossTabMessage } from './cross-tab';
import { RenewalStormGuard, shouldRenewOnTabActivation } from './renewal-guard';

/**
 * Tokens from the identity provider's OpenID Connect flow, through oidc-client-ts: authorization code with
 * PKCE (S256), where the authorize request carries the one-time sessionToken of a completed sign-in, so
 * the provider shows no page of its own. Tokens are kept in this tab's session storage (never local
 * storage): they survive a reload but not the tab (docs/decisions/006-spa-session.md).
 */

/** The signed-in customer (spec section 3): the access token and the claims the data calls need. */
export interface CurrentUser {
  accessToken: string;
  /** From the access token's `customerId` claim. */
  customerId: string;
  /** From the access token's `onBehalfOf` claim (the customer themselves in self-service). */
  onBehalfOf: string | undefined;
  /** Access token expiry, seconds since the epoch. */
  expiresAt: number | undefined;
}

/** Decodes a JWT's payload without verifying it: the services verify; the SPA only reads its own claims. */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The current user of an oidc-client-ts user, or null when its tokens carry no customer id. */
export function currentUserOf(
  user: Pick<User, 'access_token' | 'expires_at' | 'profile'>,
): CurrentUser | null {
  const claims = jwtClaims(user.access_token) ?? {};
  const customerId = claims['customerId'] ?? user.profile?.['customerId'];
  if (typeof customerId !== 'string' || customerId === '') return null;
  const onBehalfOf = claims['onBehalfOf'];
  return {
    accessToken: user.access_token,
    customerId,
    onBehalfOf: typeof onBehalfOf === 'string' ? onBehalfOf : undefined,
    expiresAt: user.expires_at,
  };
}

/** This tab's session storage, or memory when the browser refuses storage (the sign-in then lasts the page). */
function tabStorage(): Storage {
  try {
    const storage = window.sessionStorage;
    storage.getItem('oidc.probe');
    return storage;
  } catch {
    return new InMemoryWebStorage();
  }
}

/** oidc-client-ts settings from page init. Exported for tests. */
export function userManagerSettings(settings: PageInitSettings) {
  const store = new WebStorageStateStore({ store: tabStorage(), prefix: 'oidc.' });
  return {
    authority: settings.identity.issuer,
    client_id: settings.identity.clientId,
    redirect_uri: settings.identity.redirectUri,
    post_logout_redirect_uri: settings.identity.postLogoutRedirectUri,
    response_type: 'code',
    scope: settings.identity.scopes.join(' '),
    userStore: store,
    // The PKCE verifier and state of a redirect in progress: this tab only, like the tokens.
    stateStore: store,
    // Renewal is ours (storm guard, cross-tab hand-over, renew on tab activation).
    automaticSilentRenew: false,
    accessTokenExpiringNotificationTimeInSeconds: 60,
    loadUserInfo: false,
    monitorSession: false,
    revokeTokenTypes: ['refresh_token' as const],
    requestTimeoutInSeconds: 30,
  };
}

let manager: UserManager | undefined;
let cachedUser: User | null = null;
const userListeners = new Set<() => void>();
let currentSnapshot: CurrentUser | null = null;

function setCachedUser(user: User | null): void {
  cachedUser = user;
  const next = user && !user.expired ? currentUserOf(user) : null;
  if (next?.accessToken === currentSnapshot?.accessToken && next?.customerId === currentSnapshot?.customerId)
    return;
  currentSnapshot = next;
  for (const listener of userListeners) listener();
}

/** The tab's UserManager, created on first use from page init. */
export function getUserManager(): UserManager {
  if (!manager) {
    manager = new UserManager(userManagerSettings(getPageInit()));
    manager.events.addUserLoaded((user) => setCachedUser(user));
    manager.events.addUserUnloaded(() => setCachedUser(null));
  }
  return manager;
}

/** Forgets the UserManager (tests, or settings replaced). */
export function resetTokenClient(): void {
  manager = undefined;
  setCachedUser(null);
}

/** Loads the stored tokens into memory; call once at start. Answers the stored user, expired or not. */
export async function loadStoredUser(): Promise<User | null> {
  const user = await getUserManager().getUser();
  setCachedUser(user);
  return user;
}

/**
 * Sends the browser to the provider's authorize endpoint with the one-time sessionToken; the provider
 * redirects back to /login/callback with a code. Never resolves in practice: the page is replaced.
 */
export async function beginTokenExchange(sessionToken: string): Promise<void> {
  await getUserManager().signinRedirect({ extraQueryParams: { sessionToken }, redirectMethod: 'replace' });
}

/** Redeems the code at /login/callback (PKCE verifier from this tab) and stores the tokens. */
export async function completeTokenExchange(url: string = window.location.href): Promise<CurrentUser> {
  const user = await getUserManager().signinRedirectCallback(url);
  setCachedUser(user);
  const current = currentUserOf(user);
  if (!current) throw new Error('The access token carries no customer id');
  return current;
}

/** The signed-in customer from memory, or null (no tokens, or the access token has expired). */
export function getCurrentUser(): CurrentUser | null {
  if (cachedUser?.expired) setCachedUser(cachedUser);
  return currentSnapshot;
}

export function subscribeCurrentUser(listener: () => void): () => void {
  userListeners.add(listener);
  return () => userListeners.delete(listener);
}

export function useCurrentUser(): CurrentUser | null {
  return useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
}

/** Forgets the tokens in this tab (memory and session storage). */
export async function removeTokens(): Promise<void> {
  await getUserManager().removeUser();
  setCachedUser(null);
  await getUserManager().clearStaleState();
}

/** Revokes the refresh token at the provider (best effort: the provider session end also revokes it). */
export async function revokeRefreshToken(): Promise<void> {
  if (!cachedUser?.refresh_token) return;
  await getUserManager().revokeTokens(['refresh_token']);
}

/* Renewal --------------------------------------------------------------------------------------- */

const stormGuard = new RenewalStormGuard();
let renewing: Promise<User> | null = null;

export class TokenRenewalError extends Error {
  override name = 'TokenRenewalError';
}

/** Runs `work` holding a lock every tab of this portal respects, where the Web Locks API exists. */
async function withRenewalLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return work();
  return locks.request('portal-token-renewal', work);
}

/**
 * Renews the tokens with the refresh token (no page, no iframe). Counted by the storm guard, which throws
 * TokenRenewalStormError at 10 renewals in under 30 s. Concurrent callers share one renewal, and tabs
 * holding the same refresh token take turns: a tab that finds its tokens already replaced by another
 * tab's renewal uses those instead of spending the refresh token twice.
 */
export function renewTokens(): Promise<User> {
  if (renewing) return renewing;
  const started = cachedUser?.refresh_token;
  renewing = (async () => {
    stormGuard.record();
    return withRenewalLock(async () => {
      const stored = await getUserManager().getUser();
      if (stored && stored.refresh_token !== started && !stored.expired) {
        setCachedUser(stored);
        return stored;
      }
      const refreshToken = stored?.refresh_token;
      if (!refreshToken) throw new TokenRenewalError('No refresh token to renew with');
      const renewed = await getUserManager().signinSilent();
      if (!renewed) throw new TokenRenewalError('The provider returned no tokens');
      setCachedUser(renewed);
      broadcast({
        type: 'tokens-renewed',
        previousRefreshToken: refreshToken,
        user: renewed.toStorageString(),
      });
      return renewed;
    });
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

/**
 * The access token for a data call, renewed first when it has expired (a sleeping laptop wakes up with an
 * old token). Undefined when signed out or when renewal fails; the call then gets a 401 like any other.
 */
export async function getAccessToken(): Promise<string | undefined> {
  const user = cachedUser;
  if (!user) return undefined;
  if (!user.expired) return user.access_token;
  try {
    return (await renewTokens()).access_token;
  } catch {
    return undefined;
  }
}

export interface RenewalOptions {
  /** Renewal failed for good (storm, refresh token refused, session ended): sign the customer out. */
  onFailure: (error: unknown) => void;
  now?: () => number;
}

/**
 * Keeps the tokens fresh: renews a minute before the access token expires, when it has expired, and when
 * a tab hidden for 1800 s or more is shown again; adopts tokens renewed by a duplicate tab. Returns a
 * function that stops it.
 */
export function startTokenRenewal({ onFailure, now = Date.now }: RenewalOptions): () => void {
  const events = getUserManager().events;
  const renew = () => {
    if (!cachedUser) return;
    renewTokens().catch(onFailure);
  };
  events.addAccessTokenExpiring(renew);
  events.addAccessTokenExpired(renew);

  let hiddenAt: number | null = typeof document !== 'undefined' && document.hidden ? now() : null;
  const onVisibility = () => {
    if (document.hidden) {
      hiddenAt = now();
      return;
    }
    const renewNow = shouldRenewOnTabActivation(hiddenAt, now());
    hiddenAt = null;
    if (renewNow) renew();
  };
  document.addEventListener('visibilitychange', onVisibility);

  const stopListening = onCrossTabMessage((message) => {
    if (message.type !== 'tokens-renewed') return;
    if (!cachedUser?.refresh_token || cachedUser.refresh_token !== message.previousRefreshToken) return;
    const user = User.fromStorageString(message.user);
    const userManager = getUserManager();
    // Storing alone would not re-arm the expiry timers; loading does, and raises userLoaded.
    void userManager.storeUser(user).then(() => userManager.events.load(user));
  });

  return () => {
    events.removeAccessTokenExpiring(renew);
    events.removeAccessTokenExpired(renew);
    document.removeEventListener('visibilitychange', onVisibility);
    stopListening();
  };
}

/** Forgets the renewal history (after sign-out, and in tests). */
export function resetRenewalGuard(): void {
  stormGuard.reset();
}
