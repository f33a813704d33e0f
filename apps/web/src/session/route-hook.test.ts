import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { setPageInit } from '../lib/page-init';
import { testPageInit } from '../test/content-fixtures';
import { resetSessionGuard, sessionGuard } from './route-hook';
import { getSessionData, setAuthenticated, setSessionData } from './session-store';
import { installFakeIdentityService, type FakeIdentityService } from './testing/fake-identity-service';

const settings = { accountRootPage: '/account', errorPage: '/error' };
const page = (type: string, requiresAuthentication = false) => ({ type, requiresAuthentication });
let identity: FakeIdentityService;
let visited: string[];

beforeEach(() => {
  identity = installFakeIdentityService();
  setPageInit(testPageInit);
  visited = [];
  registerNavigator({ navigate: (to) => visited.push(to), currentPath: () => '/' });
  resetSessionGuard();
});
afterEach(() => vi.unstubAllGlobals());

describe('the router hook of the session', () => {
  it('keeps the journey while moving between sign-in pages', async () => {
    setSessionData({ status: 'mfaRequired', stateToken: 'st-1', factors: [] });
    expect(await sessionGuard({ page: page('LoginPage'), pathname: '/login', settings })).toBeNull();
    expect(
      await sessionGuard({
        page: page('AuthenticationVerificationPage'),
        pathname: '/login/verify',
        settings,
      }),
    ).toBeNull();
    expect(getSessionData()?.stateToken).toBe('st-1');
  });

  it('ends the journey (and its transaction) when a signed-out visitor leaves a page outside it', async () => {
    setSessionData({ status: 'mfaRequired', stateToken: 'st-1', factors: [] });
    sessionStorage.setItem('redirectAfterLogin', '/account/bills-and-payments');
    await sessionGuard({ page: page('StandardPageTemplate'), pathname: '/help/faqs', settings });
    expect(getSessionData()?.stateToken).toBe('st-1');
    await sessionGuard({ page: page('AuthenticationVerificationPage'), pathname: '/login/verify', settings });
    expect(getSessionData()).toBeNull();
    expect(
      identity.calls.some(
        (c) => c.path.endsWith('/authn/cancel') && (c.body as { stateToken: string }).stateToken === 'st-1',
      ),
    ).toBe(true);
    // Quietly: no page change, and the address waiting for after sign-in stays.
    expect(visited).toEqual([]);
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/account/bills-and-payments');
  });

  it('sends a customer in the marketing step to the account root', async () => {
    setAuthenticated(true);
    setSessionData({ status: 'marketingPreferences' });
    expect(
      await sessionGuard({ page: page('DashboardPage', true), pathname: '/account/dashboard', settings }),
    ).toBe('/account');
    expect(
      await sessionGuard({ page: page('AccountPage', true), pathname: '/account', settings }),
    ).toBeNull();
  });
});
