// Types only: the module itself is loaded with import() (see loadTokenClient).
import type * as TokenClientModule from './token-client';
import { broadcast, onCrossTabMessage } from './cross-tab';
import { RenewalStormGuard, shouldRenewOnTabActivation } from './renewal-guard';
import {
  cachedTokens,
  epochSeconds,
  onTokensChanged,
  parseTokens,
  readStoredTokens,
  RENEW_BEFORE_EXPIRY_SECONDS,
  serialiseTokens,
  tokenStorageKey,
  getCurrentUser,
  loadStoredUser,
  OIDC_STORAGE_PREFIX,
  setTokensInMemory,
  storeTokens,
  tabStorage,
  TokenRenewalError,
  tokensExpired,
  useCurrentUser,
  type CurrentUser,
  type StoredTokens,
} from './token-store';

// The stored tokens and the current user live in token-store.ts (shared with token-client.ts); the rest of
// the app reads them through this module.
export {
  getCurrentUser,
  loadStoredUser,
  storeTokens,
  tokensExpired,
  useCurrentUser,
  type CurrentUser,
  type StoredTokens,
};

/**
 * The light half of the OpenID Connect tokens: what every page needs at start (the stored tokens, the
 * signed-in customer, the access token for data calls, expiry timers, tab and cross-tab renewal triggers)
 * without oidc-client-ts. The library and the code that talks to the provider (the sign-in exchange, the
 * callback, a renewal, revocation) are in `token-client.ts`, loaded with `import()` the first time one
 * of them is needed, so the sign-in page and a freshly loaded signed-in page do not download it.
 *
 * Tokens are kept in this tab's session storage (never local storage), in oidc-client-ts's own format
 * under its own key, so both halves read and write the same entry: they survive a reload but not the
 * tab (docs/decisions/006-spa-session.md).
 */

/* The token client (oidc-client-ts), on demand ---------------------------------------------------- */

type TokenClient = typeof TokenClientModule;

let clientLoading: Promise<TokenClient> | undefined;
let loadedClient: TokenClient | undefined;

function loadTokenClient(): Promise<TokenClient> {
  clientLoading ??= import('./token-client').then(
    (client) => {
      loadedClient = client;
      return client;
    },
    (error: unknown) => {
      // A failed chunk download (offline for a moment) is tried again next time.
      clientLoading = undefined;
      throw error;
    },
  );
  return clientLoading;
}

/**
 * Starts downloading the token client: the challenge page calls this so the sign-in exchange after the
 * code does not wait for the library on a slow connection. Settles (never rejects) once it is in or has
 * failed, so that what the page fetches next can wait for it.
 */
export function prefetchTokenClient(): Promise<void> {
  return loadTokenClient().then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Sends the browser to the provider's authorize endpoint with the one-time sessionToken; the provider
 * redirects back to /login/callback with a code. Never resolves in practice: the page is replaced.
 */
export async function beginTokenExchange(sessionToken: string): Promise<void> {
  await (await loadTokenClient()).beginTokenExchange(sessionToken);
}

/** Redeems the code at /login/callback (PKCE verifier from this tab) and stores the tokens. */
export async function completeTokenExchange(url: string = window.location.href): Promise<CurrentUser> {
  return (await loadTokenClient()).completeTokenExchange(url);
}

/** Removes the PKCE state of sign-ins started over 15 minutes ago (oidc-client-ts's clearStaleState). */
const STALE_STATE_AGE_SECONDS = 900;

function clearStaleSignInState(nowMs: number): void {
  const store = tabStorage();
  const cutoff = epochSeconds(nowMs) - STALE_STATE_AGE_SECONDS;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(OIDC_STORAGE_PREFIX) && !key.startsWith(`${OIDC_STORAGE_PREFIX}user:`))
      keys.push(key);
  }
  for (const key of keys) {
    let stale: boolean;
    try {
      const created = (JSON.parse(store.getItem(key) ?? '') as { created?: unknown }).created;
      stale = typeof created === 'number' && created > 0 && created <= cutoff;
    } catch {
      stale = true;
    }
    if (stale) store.removeItem(key);
  }
}

/** Forgets the tokens in this tab (memory and session storage). */
export async function removeTokens(): Promise<void> {
  // When loaded, the library is told too (it stops its own expiry timers).
  if (loadedClient) await loadedClient.removeUser();
  try {
    tabStorage().removeItem(tokenStorageKey());
  } catch {
    // Nothing stored, or storage refused.
  }
  setTokensInMemory(null);
  clearStaleSignInState(Date.now());
}

/** Revokes the refresh token at the provider (best effort: the provider session end also revokes it). */
export async function revokeRefreshToken(): Promise<void> {
  if (!cachedTokens()?.refresh_token) return;
  await (await loadTokenClient()).revokeRefreshToken();
}

/**
 * Whether this tab has asked for the token client (oidc-client-ts), which starts its download. Only the
 * sign-in exchange and callback (and the challenge page's prefetch), a renewal and the revocation at
 * sign-out ask: a signed-in page that opens with usable tokens does not (tests; the bundle report counts
 * the client as loaded on demand, decision 029).
 */
export function tokenClientRequested(): boolean {
  return clientLoading !== undefined;
}

/** Forgets the token client, as a reload does, and the tokens in memory (tests, or settings replaced). */
export function resetTokenClient(): void {
  loadedClient?.resetUserManager();
  loadedClient = undefined;
  clientLoading = undefined;
  setTokensInMemory(null);
}

/* Renewal --------------------------------------------------------------------------------------- */

const stormGuard = new RenewalStormGuard();
let renewing: Promise<StoredTokens> | null = null;

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
export function renewTokens(): Promise<StoredTokens> {
  if (renewing) return renewing;
  const started = cachedTokens()?.refresh_token;
  renewing = (async () => {
    stormGuard.record();
    return withRenewalLock(async () => {
      const stored = readStoredTokens();
      if (stored && stored.refresh_token !== started && !tokensExpired(stored)) {
        setTokensInMemory(stored);
        return stored;
      }
      const refreshToken = stored?.refresh_token;
      if (!refreshToken) throw new TokenRenewalError('No refresh token to renew with');
      const renewed = await (await loadTokenClient()).refreshTokens();
      setTokensInMemory(renewed);
      broadcast({
        type: 'tokens-renewed',
        previousRefreshToken: refreshToken,
        user: serialiseTokens(renewed),
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
  const tokens = cachedTokens();
  if (!tokens) return undefined;
  if (!tokensExpired(tokens)) return tokens.access_token;
  try {
    return (await renewTokens()).access_token;
  } catch {
    return undefined;
  }
}

/** Longest wait between two looks at the clock: timers sleep with the device, the clock does not. */
const EXPIRY_CHECK_MS = 5000;

/**
 * Calls `onExpiring` once a minute before the access token expires and `onExpired` once just after, as
 * oidc-client-ts's access token events do: a short timer compares the wall clock with the expiry, so a
 * device waking from sleep catches up within seconds.
 */
class ExpiryWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expiringAt: number | null = null;
  private expiredAt: number | null = null;

  constructor(
    private readonly now: () => number,
    private readonly onExpiring: () => void,
    private readonly onExpired: () => void,
  ) {}

  arm(tokens: StoredTokens | null): void {
    this.stop();
    if (!tokens?.access_token || tokens.expires_at === undefined) return;
    const nowSeconds = epochSeconds(this.now());
    const remaining = tokens.expires_at - nowSeconds;
    this.expiringAt =
      remaining > 0 ? nowSeconds + Math.max(remaining - RENEW_BEFORE_EXPIRY_SECONDS, 1) : null;
    this.expiredAt = nowSeconds + Math.max(remaining + 1, 1);
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.expiringAt = null;
    this.expiredAt = null;
  }

  private schedule(): void {
    const next = this.expiringAt ?? this.expiredAt;
    if (next === null) return;
    const wait = Math.min(Math.max(next * 1000 - this.now(), 0), EXPIRY_CHECK_MS);
    this.timer = setTimeout(() => this.check(), wait);
  }

  private check(): void {
    this.timer = undefined;
    const nowSeconds = epochSeconds(this.now());
    if (this.expiringAt !== null && this.expiringAt <= nowSeconds) {
      this.expiringAt = null;
      this.schedule();
      this.onExpiring();
      return;
    }
    if (this.expiredAt !== null && this.expiredAt <= nowSeconds) {
      this.expiredAt = null;
      this.onExpired();
      return;
    }
    this.schedule();
  }
}

let expiryWatch: ExpiryWatch | undefined;
onTokensChanged((tokens) => expiryWatch?.arm(tokens));

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
export function startTokenRenewal({ onFailure, now = () => Date.now() }: RenewalOptions): () => void {
  const renew = () => {
    if (!cachedTokens()) return;
    renewTokens().catch(onFailure);
  };
  expiryWatch?.stop();
  const watch = new ExpiryWatch(now, renew, renew);
  expiryWatch = watch;
  watch.arm(cachedTokens());

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
    const current = cachedTokens();
    if (!current?.refresh_token || current.refresh_token !== message.previousRefreshToken) return;
    const tokens = parseTokens(message.user);
    if (tokens) storeTokens(tokens);
  });

  return () => {
    watch.stop();
    if (expiryWatch === watch) expiryWatch = undefined;
    document.removeEventListener('visibilitychange', onVisibility);
    stopListening();
  };
}

/** Forgets the renewal history (after sign-out, and in tests). */
export function resetRenewalGuard(): void {
  stormGuard.reset();
}
