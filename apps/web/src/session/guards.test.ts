import { describe, expect, it } from 'vitest';
import {
  endsJourneyOnLeave,
  keepsAddressForAfterLogin,
  marketingStepRedirect,
  type MarketingGuardInput,
} from './guards';

const settings = { accountRootPage: '/account', errorPage: '/error' };
const input = (over: Partial<MarketingGuardInput>): MarketingGuardInput => ({
  page: { type: 'DashboardPage', requiresAuthentication: true },
  pathname: '/account/dashboard',
  isAuthenticated: true,
  status: 'marketingPreferences',
  settings,
  ...over,
});

describe('session guards', () => {
  it('sends a customer in the marketing step to the account root from any other page', () => {
    expect(marketingStepRedirect(input({}))).toBe('/account');
    expect(
      marketingStepRedirect(
        input({ page: { type: 'PolicyPage', requiresAuthentication: true }, pathname: '/account/policies' }),
      ),
    ).toBe('/account');
    expect(
      marketingStepRedirect(
        input({
          page: { type: 'StandardPageTemplate', requiresAuthentication: false },
          pathname: '/contact-us',
        }),
      ),
    ).toBe('/account');
  });

  it('lets the marketing step stay on account and error pages', () => {
    expect(
      marketingStepRedirect(
        input({ page: { type: 'AccountPage', requiresAuthentication: true }, pathname: '/account' }),
      ),
    ).toBeNull();
    expect(
      marketingStepRedirect(
        input({
          page: { type: 'RegistrationMarketingPreferences', requiresAuthentication: true },
          pathname: '/account/marketing-preferences',
        }),
      ),
    ).toBeNull();
    expect(
      marketingStepRedirect(
        input({ page: { type: 'ErrorPage', requiresAuthentication: false }, pathname: '/error' }),
      ),
    ).toBeNull();
    expect(
      marketingStepRedirect(
        input({
          page: { type: 'StandardPageTemplate', requiresAuthentication: false },
          pathname: '/Account/',
        }),
      ),
    ).toBeNull();
  });

  it('leaves every other status alone', () => {
    expect(marketingStepRedirect(input({ status: 'loggedIn' }))).toBeNull();
    expect(marketingStepRedirect(input({ status: null }))).toBeNull();
    expect(marketingStepRedirect(input({ isAuthenticated: false }))).toBeNull();
  });

  it('ends the journey when a signed-out visitor leaves a page outside it', () => {
    expect(endsJourneyOnLeave('StandardPageTemplate', false)).toBe(true);
    expect(endsJourneyOnLeave('DashboardPage', false)).toBe(true);
    for (const type of [
      'LoginPage',
      'AuthenticationVerificationPage',
      'AuthenticationChallengePage',
      'PasswordPage',
      'RegistrationPage',
    ]) {
      expect(endsJourneyOnLeave(type, false)).toBe(false);
    }
    expect(endsJourneyOnLeave('StandardPageTemplate', true)).toBe(false);
    expect(endsJourneyOnLeave(null, false)).toBe(false);
  });

  it('keeps the address for after sign-in for policy, cover, documents, bills and messages pages only', () => {
    for (const path of [
      '/account/policies',
      '/account/policies/cover/',
      '/account/policies/documents',
      '/account/bills-and-payments',
      '/account/messages',
    ]) {
      expect(keepsAddressForAfterLogin(path)).toBe(true);
    }
    expect(keepsAddressForAfterLogin('/account/dashboard')).toBe(false);
  });
});
