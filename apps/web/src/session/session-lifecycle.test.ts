import { endCurrentSessionCall } from '@portal/contracts/session';
import { waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { setPageInit } from '../lib/page-init';
import { testPageInit } from '../test/content-fixtures';
import { answeredRequests, callsTo, fakeApi } from '../test/fake-api/fake-api';
import {
  identityScenario,
  margaret,
  openIdProvider,
  testAccessToken,
  type IdentityScenario,
} from '../test/fake-api/identity-scenario';
import { closeCrossTab } from './cross-tab';
import { initAuth, stopAuth } from './init';
import { TokenRenewalStormError } from './renewal-guard';
import { handleLoginCallback } from './login-callback';
import { peekSignOutNotice, signOut } from './sign-out';
import { getAuthSnapshot } from './session-store';
import { callbackUrl, reachTokenExchange } from './testing/journey';
import {
  getAccessToken,
  getCurrentUser,
  renewTokens,
  resetRenewalGuard,
  resetTokenClient,
  tokenClientRequested,
} from './tokens';

let identity: IdentityScenario;
let visited: string[];

/** Calls to the identity provider since `from` (the sign-in's audit event may still be on its way). */
const providerCalls = (from: number) =>
  answeredRequests()
    .slice(from)
    .filter((c) => c.service === 'identity');
/** The OpenID token requests (code exchange and renewals). */
const tokenCalls = () => answeredRequests().filter((c) => c.id === 'oidc.token');

async function signedIn() {
  await reachTokenExchange(margaret, 'sms', () => identity.lastCode());
  const result = await handleLoginCallback('/account', callbackUrl());
  if (!result.ok) throw new Error('sign-in failed');
}

beforeEach(async () => {
  identity = identityScenario();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  visited = [];
  registerNavigator({
    navigate: (to) => visited.push(to),
    currentPath: () => '/account/policies?id=102X4567891',
  });
  resetTokenClient();
  resetRenewalGuard();
  setPageInit(testPageInit);
  await initAuth();
});
afterEach(() => {
  stopAuth();
  closeCrossTab();
  vi.restoreAllMocks();
});

describe('token renewal', () => {
  it('renews with the refresh token and keeps the customer id', async () => {
    await signedIn();
    const before = getCurrentUser()!.accessToken;
    await renewTokens();
    const refresh = tokenCalls().at(-1);
    expect(refresh?.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(getCurrentUser()!.accessToken).not.toBe(before);
    expect(await getAccessToken()).toBe(getCurrentUser()!.accessToken);
  });

  it('refuses the 10th renewal in under 30 seconds', async () => {
    await signedIn();
    for (let i = 0; i < 9; i += 1) await renewTokens();
    await expect(renewTokens()).rejects.toBeInstanceOf(TokenRenewalStormError);
  });
});

describe('sign-out', () => {
  it('ends the provider session, revokes the refresh token and clears everything of the customer', async () => {
    await signedIn();
    sessionStorage.setItem('notificationId', 'n-1');
    sessionStorage.setItem('redirectAfterLogin', '/account/bills-and-payments');
    sessionStorage.setItem(
      'userData',
      JSON.stringify({ customerId: 'C1000001', savedAt: Date.now(), data: {} }),
    );
    const otherTab = new BroadcastChannel('portal-auth');
    const told = new Promise<unknown>((resolve) => {
      otherTab.onmessage = (event) => resolve(event.data);
    });

    await signOut();

    const ended = callsTo(endCurrentSessionCall)[0];
    expect(ended?.credentials).toBe('include');
    expect(
      answeredRequests().some(
        (c) => c.id === 'oidc.revoke' && (c.body as { token?: string }).token === 'refresh-1',
      ),
    ).toBe(true);
    expect(getAuthSnapshot()).toEqual({ isAuthenticated: false, data: null });
    expect(sessionStorage.getItem('authenticated')).toBe('0');
    for (const key of [
      'authState',
      'RelayState',
      'redirect_url',
      'redirectAfterLogin',
      'notificationId',
      'userData',
    ]) {
      expect(sessionStorage.getItem(key)).toBeNull();
    }
    expect(Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:'))).toBe(false);
    expect(getCurrentUser()).toBeNull();
    expect(visited).toEqual(['/login']);
    expect(peekSignOutNotice()).toBe('user');
    expect(await told).toEqual({ type: 'signed-out', reason: 'user' });
    otherTab.close();
  });

  it('keeps the policy page to come back to after an inactivity sign-out', async () => {
    await signedIn();
    await signOut({ reason: 'idle' });
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/account/policies?id=102X4567891');
    expect(peekSignOutNotice()).toBe('idle');
  });

  it('signs this tab out when another tab signed out, without calling the provider again', async () => {
    await signedIn();
    const callsBefore = answeredRequests().length;
    const otherTab = new BroadcastChannel('portal-auth');
    otherTab.postMessage({ type: 'signed-out', reason: 'idle' });
    await waitFor(() => expect(getAuthSnapshot().isAuthenticated).toBe(false));
    expect(
      answeredRequests()
        .slice(callsBefore)
        .some((c) => c.id === endCurrentSessionCall.id),
    ).toBe(false);
    expect(visited).toEqual(['/login']);
    otherTab.close();
  });
});

describe('start-up', () => {
  it('corrects a signed-in flag that has no tokens behind it', async () => {
    stopAuth();
    sessionStorage.setItem('authenticated', '1');
    resetTokenClient();
    await initAuth();
    expect(getAuthSnapshot().isAuthenticated).toBe(false);
  });

  it('keeps a stored sign-in across a reload without asking the provider anything', async () => {
    await signedIn();
    stopAuth();
    resetTokenClient();
    const callsBefore = answeredRequests().length;
    await initAuth();
    expect(getAuthSnapshot().isAuthenticated).toBe(true);
    expect(getCurrentUser()?.customerId).toBe('C1000001');
    expect(await getAccessToken()).toBe(getCurrentUser()?.accessToken);
    expect(providerCalls(callsBefore)).toEqual([]);
  });

  it('renews tokens that expired while the tab was closed, loading the token client to do it', async () => {
    await signedIn();
    stopAuth();
    resetTokenClient();
    vi.setSystemTime(Date.now() + 601_000);
    await initAuth();
    vi.useRealTimers();
    expect(tokenClientRequested()).toBe(true);
    expect(getAuthSnapshot().isAuthenticated).toBe(true);
    const refresh = tokenCalls().at(-1);
    expect(refresh?.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(getCurrentUser()).not.toBeNull();
  });

  it('throws leftover tokens away when the flag says signed out, without renewing them', async () => {
    await signedIn();
    stopAuth();
    resetTokenClient();
    sessionStorage.setItem('authenticated', '0');
    const callsBefore = answeredRequests().length;
    await initAuth();
    expect(getCurrentUser()).toBeNull();
    expect(Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:'))).toBe(false);
    expect(providerCalls(callsBefore)).toEqual([]);
  });
});

describe('the token client (oidc-client-ts), asked for on demand', () => {
  it('is not loaded by a reload with usable tokens nor by its data calls, and is for a renewal', async () => {
    await signedIn();
    expect(tokenClientRequested(), 'the sign-in exchange loads it').toBe(true);
    stopAuth();
    resetTokenClient();
    await initAuth();
    expect(await getAccessToken()).toBe(getCurrentUser()?.accessToken);
    expect(tokenClientRequested(), 'a signed-in page opened with usable tokens').toBe(false);

    // The access token has expired when a data call asks for it (a laptop woken after ten minutes).
    const callsBefore = tokenCalls().length;
    vi.setSystemTime(Date.now() + 601_000);
    const renewed = await getAccessToken();
    vi.useRealTimers();
    expect(tokenClientRequested()).toBe(true);
    expect(
      tokenCalls()
        .slice(callsBefore)
        .map((c) => c.body),
    ).toEqual([expect.objectContaining({ grant_type: 'refresh_token', refresh_token: 'refresh-1' })]);
    expect(renewed).toBe(getCurrentUser()?.accessToken);
  });
});

describe('renewal triggers', () => {
  /** Signed in, then the page reloaded under fake timers, so the expiry timers run on them. */
  async function signedInWithFakeTimers() {
    await signedIn();
    stopAuth();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    await initAuth();
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('renews a minute before the access token expires, then again before the new one does', async () => {
    await signedInWithFakeTimers();
    const before = tokenCalls().length;
    await vi.advanceTimersByTimeAsync(530_000);
    expect(tokenCalls()).toHaveLength(before);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(tokenCalls()).toHaveLength(before + 1);
    expect(tokenCalls().at(-1)?.body).toMatchObject({ grant_type: 'refresh_token' });
    const renewed = getCurrentUser()!.accessToken;
    expect(await getAccessToken()).toBe(renewed);
    // The new token (600 s) is renewed a minute before it expires in turn.
    await vi.advanceTimersByTimeAsync(545_000);
    expect(tokenCalls()).toHaveLength(before + 2);
    expect(getCurrentUser()!.accessToken).not.toBe(renewed);
  });

  it('signs the customer out when the renewal before expiry is refused', async () => {
    await signedInWithFakeTimers();
    fakeApi.use(openIdProvider.token(() => HttpResponse.json({ error: 'invalid_grant' }, { status: 400 })));
    await vi.advanceTimersByTimeAsync(545_000);
    expect(tokenCalls().length).toBeGreaterThan(1);
    await vi.waitFor(() => expect(getAuthSnapshot().isAuthenticated).toBe(false));
    expect(visited).toEqual(['/login']);
    expect(peekSignOutNotice()).toBe('expired');
  });

  it('renews when a tab hidden for half an hour or more is shown again', async () => {
    await signedIn();
    let hidden = false;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    const show = (isHidden: boolean) => {
      hidden = isHidden;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const before = tokenCalls().length;
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      show(true);
      vi.setSystemTime(Date.now() + 100_000);
      show(false);
      expect(tokenCalls()).toHaveLength(before);

      show(true);
      vi.setSystemTime(Date.now() + 1_800_000);
      show(false);
      await vi.waitFor(() => expect(tokenCalls()).toHaveLength(before + 1));
    } finally {
      Reflect.deleteProperty(document, 'hidden');
    }
  });
});

describe('tabs holding the same tokens', () => {
  it('hands renewed tokens to a duplicated tab that held the same refresh token', async () => {
    await signedIn();
    const otherTab = new BroadcastChannel('portal-auth');
    const told = new Promise<{ type: string; previousRefreshToken: string; user: string }>((resolve) => {
      otherTab.onmessage = (event) => resolve(event.data as never);
    });
    await renewTokens();
    const message = await told;
    expect(message).toMatchObject({ type: 'tokens-renewed', previousRefreshToken: 'refresh-1' });
    expect(JSON.parse(message.user)).toMatchObject({
      access_token: getCurrentUser()!.accessToken,
      refresh_token: 'refresh-2',
    });
    otherTab.close();
  });

  it('adopts tokens another tab renewed from the refresh token this tab holds, and ignores others', async () => {
    await signedIn();
    const mine = getCurrentUser()!.accessToken;
    const otherTab = new BroadcastChannel('portal-auth');
    const now = Math.floor(Date.now() / 1000);
    const tokens = (n: number) =>
      JSON.stringify({
        access_token: testAccessToken({ customerId: 'C1000001', onBehalfOf: 'C1000001', n }),
        refresh_token: `refresh-other-${n}`,
        token_type: 'Bearer',
        expires_at: now + 600,
        profile: { sub: 'user-1' },
      });

    otherTab.postMessage({ type: 'tokens-renewed', previousRefreshToken: 'someone-else', user: tokens(7) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getCurrentUser()!.accessToken).toBe(mine);

    otherTab.postMessage({ type: 'tokens-renewed', previousRefreshToken: 'refresh-1', user: tokens(8) });
    await waitFor(() => expect(getCurrentUser()!.accessToken).not.toBe(mine));
    const stored = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
    expect(JSON.parse(sessionStorage.getItem(stored)!)).toMatchObject({ refresh_token: 'refresh-other-8' });
    // The next renewal spends the adopted refresh token, not the one the other tab already used.
    await renewTokens();
    expect(tokenCalls().at(-1)?.body).toMatchObject({
      refresh_token: 'refresh-other-8',
    });
    otherTab.close();
  });
});
