import { useSyncExternalStore } from 'react';
import { getPageInit } from '../lib/page-init';

/**
 * The stored OpenID Connect tokens and the signed-in customer read from them, shared by both halves of
 * the token code (`tokens.ts`, loaded by every page, and `token-client.ts`, loaded on demand) so that
 * neither imports the other's module: this tab's session storage in oidc-client-ts's format, the
 * in-memory copy, and the current-user snapshot React components subscribe to.
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

/** The token set as oidc-client-ts stores it (`User.toStorageString()`). */
export interface StoredTokens {
  access_token: string;
  refresh_token?: string | undefined;
  id_token?: string | undefined;
  token_type?: string | undefined;
  scope?: string | undefined;
  session_state?: string | null | undefined;
  profile?: Record<string, unknown> | undefined;
  /** Access token expiry, seconds since the epoch. */
  expires_at?: number | undefined;
}

/** Seconds before expiry at which the access token is renewed (oidc-client-ts's "expiring" event). */
export const RENEW_BEFORE_EXPIRY_SECONDS = 60;

/** Decodes a JWT's payload without verifying it: the services verify; the SPA only reads its own claims. */
function jwtClaims(token: string): Record<string, unknown> | null {
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

/** The current user of a token set, or null when its tokens carry no customer id. */
export function currentUserOf(
  tokens: Pick<StoredTokens, 'access_token' | 'expires_at' | 'profile'>,
): CurrentUser | null {
  const claims = jwtClaims(tokens.access_token) ?? {};
  const customerId = claims['customerId'] ?? tokens.profile?.['customerId'];
  if (typeof customerId !== 'string' || customerId === '') return null;
  const onBehalfOf = claims['onBehalfOf'];
  return {
    accessToken: tokens.access_token,
    customerId,
    onBehalfOf: typeof onBehalfOf === 'string' ? onBehalfOf : undefined,
    expiresAt: tokens.expires_at,
  };
}

export const epochSeconds = (ms: number) => Math.floor(ms / 1000);

/** Whether the access token has expired (as oidc-client-ts's `User.expired`: no expiry means not expired). */
export function tokensExpired(tokens: Pick<StoredTokens, 'expires_at'>, nowMs: number = Date.now()): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at - epochSeconds(nowMs) <= 0;
}

/** A stand-in for session storage when the browser refuses it: the sign-in then lasts the page. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

let storage: Storage | undefined;

/** This tab's session storage, or one shared memory store when the browser refuses storage. */
export function tabStorage(): Storage {
  if (storage) return storage;
  try {
    const session = window.sessionStorage;
    session.getItem('oidc.probe');
    storage = session;
  } catch {
    storage = new MemoryStorage();
  }
  return storage;
}

/** Prefix of every oidc-client-ts entry (tokens and the PKCE state of a redirect in progress). */
export const OIDC_STORAGE_PREFIX = 'oidc.';

/** The key oidc-client-ts's UserManager stores the tokens under (`user:{authority}:{client_id}`). */
export function tokenStorageKey(): string {
  const { issuer, clientId } = getPageInit().identity;
  return `${OIDC_STORAGE_PREFIX}user:${issuer}:${clientId}`;
}

export function parseTokens(raw: string | null): StoredTokens | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return null;
    const tokens = value as StoredTokens;
    if (typeof tokens.access_token !== 'string' || tokens.access_token === '') return null;
    if (tokens.expires_at !== undefined && typeof tokens.expires_at !== 'number') return null;
    return tokens;
  } catch {
    return null;
  }
}

export function readStoredTokens(): StoredTokens | null {
  try {
    return parseTokens(tabStorage().getItem(tokenStorageKey()));
  } catch {
    return null;
  }
}

/** The format oidc-client-ts reads back (only its own fields, in its order). */
export function serialiseTokens(tokens: StoredTokens): string {
  return JSON.stringify({
    id_token: tokens.id_token,
    session_state: tokens.session_state ?? null,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    token_type: tokens.token_type,
    scope: tokens.scope,
    profile: tokens.profile,
    expires_at: tokens.expires_at,
  });
}

/* Memory ---------------------------------------------------------------------------------------- */

let cached: StoredTokens | null = null;
let currentSnapshot: CurrentUser | null = null;
const userListeners = new Set<() => void>();
const tokenListeners = new Set<(tokens: StoredTokens | null) => void>();

/** This tab's current token set, in memory. */
export function cachedTokens(): StoredTokens | null {
  return cached;
}

/** Called with every token set made current (the renewal timers re-arm on it). */
export function onTokensChanged(listener: (tokens: StoredTokens | null) => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

function updateSnapshot(): void {
  const next = cached && !tokensExpired(cached) ? currentUserOf(cached) : null;
  if (next?.accessToken === currentSnapshot?.accessToken && next?.customerId === currentSnapshot?.customerId)
    return;
  currentSnapshot = next;
  for (const listener of userListeners) listener();
}

/**
 * Makes a token set this tab's current one in memory (the token client calls it whenever the library
 * loads or removes tokens) and re-arms the expiry timers.
 */
export function setTokensInMemory(tokens: StoredTokens | null): void {
  cached = tokens;
  updateSnapshot();
  for (const listener of tokenListeners) listener(tokens);
}

/** Stores a token set in this tab (session storage and memory). */
export function storeTokens(tokens: StoredTokens): void {
  try {
    tabStorage().setItem(tokenStorageKey(), serialiseTokens(tokens));
  } catch {
    // Storage full or refused: the tokens last as long as the page.
  }
  setTokensInMemory(tokens);
}

/** Loads the stored tokens into memory; call once at start. Answers the stored tokens, expired or not. */
export function loadStoredUser(): Promise<StoredTokens | null> {
  const tokens = readStoredTokens();
  setTokensInMemory(tokens);
  return Promise.resolve(tokens);
}

/** The signed-in customer from memory, or null (no tokens, or the access token has expired). */
export function getCurrentUser(): CurrentUser | null {
  if (cached && currentSnapshot && tokensExpired(cached)) updateSnapshot();
  return currentSnapshot;
}

function subscribeCurrentUser(listener: () => void): () => void {
  userListeners.add(listener);
  return () => userListeners.delete(listener);
}

export function useCurrentUser(): CurrentUser | null {
  return useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
}

export class TokenRenewalError extends Error {
  override name = 'TokenRenewalError';
}
