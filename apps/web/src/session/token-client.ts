import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { PageInitSettings } from '@portal/contracts/page-init';
import { getPageInit } from '../lib/page-init';
import {
  currentUserOf,
  OIDC_STORAGE_PREFIX,
  setTokensInMemory,
  tabStorage,
  TokenRenewalError,
  type CurrentUser,
  type StoredTokens,
} from './token-store';

/**
 * The heavy half of the tokens: oidc-client-ts (`UserManager`) for the exchanges with the provider —
 * authorization code with PKCE (S256), where the authorize request carries the one-time sessionToken of a
 * completed sign-in so the provider shows no page of its own; the refresh-token renewal; revocation.
 * Loaded on demand through `tokens.ts` (never import it statically: that would put the library back into
 * every page's download). It shares the light half's storage entry and keeps its memory up to date.
 */

/** oidc-client-ts settings from page init. Exported for tests. */
export function userManagerSettings(settings: PageInitSettings) {
  const store = new WebStorageStateStore({ store: tabStorage(), prefix: OIDC_STORAGE_PREFIX });
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
    // Renewal is ours (storm guard, cross-tab hand-over, renew on tab activation; see tokens.ts).
    automaticSilentRenew: false,
    accessTokenExpiringNotificationTimeInSeconds: 60,
    loadUserInfo: false,
    monitorSession: false,
    revokeTokenTypes: ['refresh_token' as const],
    requestTimeoutInSeconds: 30,
  };
}

/** The token set of a library user, in the stored format the light half reads. */
function toStored(user: User): StoredTokens {
  return JSON.parse(user.toStorageString()) as StoredTokens;
}

let manager: UserManager | undefined;

/** The tab's UserManager, created on first use from page init. */
export function getUserManager(): UserManager {
  if (!manager) {
    const created = new UserManager(userManagerSettings(getPageInit()));
    created.events.addUserLoaded((user) => {
      if (manager === created) setTokensInMemory(toStored(user));
    });
    created.events.addUserUnloaded(() => {
      if (manager === created) setTokensInMemory(null);
    });
    manager = created;
  }
  return manager;
}

/** Forgets the UserManager (tests, or settings replaced); its expiry timers stop. */
export function resetUserManager(): void {
  void manager?.events.unload();
  manager = undefined;
}

export async function beginTokenExchange(sessionToken: string): Promise<void> {
  await getUserManager().signinRedirect({ extraQueryParams: { sessionToken }, redirectMethod: 'replace' });
}

export async function completeTokenExchange(url: string): Promise<CurrentUser> {
  const user = await getUserManager().signinRedirectCallback(url);
  setTokensInMemory(toStored(user));
  const current = currentUserOf(user);
  if (!current) throw new Error('The access token carries no customer id');
  return current;
}

/** One refresh-token grant; the library stores the new tokens. */
export async function refreshTokens(): Promise<StoredTokens> {
  const renewed = await getUserManager().signinSilent();
  if (!renewed) throw new TokenRenewalError('The provider returned no tokens');
  return toStored(renewed);
}

export async function revokeRefreshToken(): Promise<void> {
  await getUserManager().revokeTokens(['refresh_token']);
}

/** Removes the stored tokens through the library (which stops its timers) and stale sign-in state. */
export async function removeUser(): Promise<void> {
  const userManager = getUserManager();
  await userManager.removeUser();
  await userManager.clearStaleState();
}
