import { cancelCall } from '@portal/contracts/identity';
import { beforeEach, describe, expect, it } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { setPageInit } from '../lib/page-init';
import { testPageInit } from '../test/content-fixtures';
import { callsTo } from '../test/fake-api/fake-api';
import { identityScenario } from '../test/fake-api/identity-scenario';
import { resetSessionGuard, sessionGuard } from './route-hook';
import { getSessionData, setAuthenticated, setSessionData } from './session-store';

const settings = { accountRootPage: '/account', errorPage: '/error' };
const page = (type: string, requiresAuthentication = false) => ({ type, requiresAuthentication });
let visited: string[];

beforeEach(() => {
  identityScenario();
  setPageInit(testPageInit);
  visited = [];
  registerNavigator({ navigate: (to) => visited.push(to), currentPath: () => '/' });
  resetSessionGuard();
});

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
    expect(callsTo(cancelCall).some((c) => c.body.stateToken === 'st-1')).toBe(true);
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
