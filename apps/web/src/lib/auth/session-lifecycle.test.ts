import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../app-navigation';
import { setPageInit } from '../page-init';
import { testPageInit } from '../../test/content-fixtures';
import { closeCrossTab } from './cross-tab';
import { initAuth, stopAuth } from './init';
import { TokenRenewalStormError } from './renewal-guard';
import { handleLoginCallback } from './sign-in';
import { peekSignOutNotice, signOut } from './sign-out';
import { getAuthSnapshot } from './session-store';
import {
  installFakeIdentityService,
  margaret,
  type FakeIdentityService,
} from './testing/fake-identity-service';
import { callbackUrl, reachTokenExchange } from './testing/journey';
import { getAccessToken, getCurrentUser, renewTokens, resetRenewalGuard, resetTokenClient } from './tokens';

let identity: FakeIdentityService;
let visited: string[];

async function signedIn() {
  await reachTokenExchange(margaret, 'sms', () => identity.lastCode());
  const result = await handleLoginCallback('/account', callbackUrl());
  if (!result.ok) throw new Error('sign-in failed');
}

beforeEach(async () => {
  identity = installFakeIdentityService();
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
  vi.unstubAllGlobals();
});

describe('token renewal', () => {
  it('renews with the refresh token and keeps the customer id', async () => {
    await signedIn();
    const before = getCurrentUser()!.accessToken;
    await renewTokens();
    const refresh = identity.calls.filter((c) => c.path.endsWith('/v1/token')).at(-1);
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
    const otherTab = new BroadcastChannel('portal-auth');
    const told = new Promise<unknown>((resolve) => {
      otherTab.onmessage = (event) => resolve(event.data);
    });

    await signOut();

    const ended = identity.fetch.mock.calls.find(
      ([url, init]) => String(url).endsWith('/api/v1/sessions/me') && init?.method === 'DELETE',
    );
    expect(ended?.[1]?.credentials).toBe('include');
    expect(
      identity.calls.some(
        (c) => c.path.endsWith('/v1/revoke') && (c.body as { token?: string }).token === 'refresh-1',
      ),
    ).toBe(true);
    expect(getAuthSnapshot()).toEqual({ isAuthenticated: false, data: null });
    expect(sessionStorage.getItem('authenticated')).toBe('0');
    for (const key of ['authState', 'RelayState', 'redirect_url', 'redirectAfterLogin', 'notificationId']) {
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
    const callsBefore = identity.calls.length;
    const otherTab = new BroadcastChannel('portal-auth');
    otherTab.postMessage({ type: 'signed-out', reason: 'idle' });
    await waitFor(() => expect(getAuthSnapshot().isAuthenticated).toBe(false));
    expect(identity.calls.slice(callsBefore).some((c) => c.path.endsWith('/sessions/me'))).toBe(false);
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

  it('keeps a stored sign-in across a reload', async () => {
    await signedIn();
    stopAuth();
    resetTokenClient();
    await initAuth();
    expect(getAuthSnapshot().isAuthenticated).toBe(true);
    expect(getCurrentUser()?.customerId).toBe('C1000001');
  });
});
