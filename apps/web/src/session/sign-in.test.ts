import { waitFor } from '@testing-library/react';
import { statusTokenCall } from '@portal/contracts/account';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callbackUrl, reachTokenExchange } from './testing/journey';
import { setPageInit } from '../lib/page-init';
import { testPageInit } from '../test/content-fixtures';
import { answeredRequests, callsTo, fakeApi, fakeCall } from '../test/fake-api/fake-api';
import { identityScenario, margaret, type IdentityScenario } from '../test/fake-api/identity-scenario';
import { initAuth, stopAuth } from './init';
import { handleLoginCallback } from './login-callback';
import { getAuthSnapshot } from './session-store';
import { getCurrentUser, resetTokenClient } from './tokens';

let identity: IdentityScenario;

beforeEach(async () => {
  identity = identityScenario();
  resetTokenClient();
  setPageInit(testPageInit);
  await initAuth();
  // jsdom cannot navigate; the authorize redirect itself is the provider's business.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await reachTokenExchange(margaret, 'sms', () => identity.lastCode());
});
afterEach(() => {
  stopAuth();
  vi.restoreAllMocks();
});

describe('sign-in completion at /login/callback', () => {
  it('prepares an authorize request with the sessionToken and PKCE', () => {
    const discovery = answeredRequests().find((c) => c.id === 'oidc.discovery');
    expect(discovery).toBeDefined();
    expect(getAuthSnapshot().data).toEqual({
      status: 'success',
      verifiedWith: 'sms',
      oktaUserId: margaret.id,
    });
    const stateKey = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.'))!;
    expect(JSON.parse(sessionStorage.getItem(stateKey)!)).toMatchObject({
      code_verifier: expect.any(String),
    });
    // Nothing of it goes to local storage.
    expect(Object.keys(localStorage).filter((k) => k.startsWith('oidc.'))).toEqual([]);
  });

  it('redeems the code, records the login and goes to the marketing step at the account root', async () => {
    const result = await handleLoginCallback('/account', callbackUrl());
    expect(result).toMatchObject({ ok: true, destination: { kind: 'internal', path: '/account' } });
    const token = answeredRequests().find((c) => c.id === 'oidc.token');
    expect(token?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'auth-code-1',
      code_verifier: expect.any(String),
    });
    expect(getAuthSnapshot()).toEqual({
      isAuthenticated: true,
      data: { status: 'marketingPreferences', oktaUserId: margaret.id },
    });
    expect(sessionStorage.getItem('authenticated')).toBe('1');
    expect(getCurrentUser()).toMatchObject({ customerId: 'C1000001', onBehalfOf: 'C1000001' });
    await waitFor(() => {
      const audit = callsTo(postAuditEventCall).find((c) => c.body.eventId === 'Login');
      expect(audit?.body).toMatchObject({
        eventId: 'Login',
        isSuccess: true,
        customerId: 'C1000001',
        onBehalfOf: 'C1000001',
        mfaSendMethod: 'sms',
        mfaUsedForLogin: true,
        authenticationStatus: 'Authenticated',
        sessionId: expect.any(String),
      });
      expect(audit?.headers.get('Authorization')).toMatch(/^Bearer /);
    });
    // Tokens stay in this tab's session storage only.
    expect(Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:'))).toBe(true);
    expect(Object.keys(localStorage).some((k) => k.startsWith('oidc.'))).toBe(false);
  });

  it('goes to the RelayState address instead, with status loggedIn', async () => {
    sessionStorage.setItem('RelayState', '/account/dashboard');
    const result = await handleLoginCallback('/account', callbackUrl());
    expect(result).toMatchObject({ ok: true, destination: { kind: 'internal', path: '/account/dashboard' } });
    expect(getAuthSnapshot().data?.status).toBe('loggedIn');
    expect(sessionStorage.getItem('RelayState')).toBeNull();
  });

  it('fills the {statusToken} of a stored redirect_url with a token from the account service', async () => {
    sessionStorage.setItem('redirect_url', btoa('/account/bills-and-payments?ref={statusToken}'));
    const result = await handleLoginCallback('/account', callbackUrl());
    expect(result).toMatchObject({
      ok: true,
      destination: { kind: 'internal', path: '/account/bills-and-payments?ref=status-1' },
    });
    const call = callsTo(statusTokenCall)[0];
    expect(call?.params.customerId).toBe('C1000001');
    expect(call?.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('carries on to the marketing step when no status token can be had', async () => {
    fakeApi.use(fakeCall(statusTokenCall, () => ({ status: 500 })));
    sessionStorage.setItem('redirect_url', btoa('/account/bills-and-payments?ref={statusToken}'));
    const result = await handleLoginCallback('/account', callbackUrl());
    expect(result).toMatchObject({ ok: true, destination: { kind: 'internal', path: '/account' } });
    expect(console.error).toHaveBeenCalledWith('Failed to obtain token');
  });

  it('refuses a redirect_url to another site and never asks for a token for it', async () => {
    sessionStorage.setItem('redirect_url', btoa('https://evil.example/steal?t={statusToken}'));
    const result = await handleLoginCallback('/account', callbackUrl());
    expect(result).toMatchObject({ ok: true, destination: { kind: 'internal', path: '/account' } });
    expect(callsTo(statusTokenCall)).toHaveLength(0);
  });

  it('reports a refused exchange and stays signed out', async () => {
    const result = await handleLoginCallback('/account', `${callbackUrl()}x`);
    expect(result).toEqual({ ok: false, reason: 'refused' });
    expect(getAuthSnapshot()).toEqual({ isAuthenticated: false, data: null });
  });
});
