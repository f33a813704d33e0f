import { pageContent } from '@portal/contracts/content';
import { describe, expect, it } from 'vitest';
import forgottenPasswordContent from '../../../../content/pages/forgotten-password.json';
import { page, makeSettings } from '../test/content-fixtures';
import { contentFailureDestination, guardRedirect, keepsAddressForAfterLogin } from './guards';

const settings = makeSettings();

describe('route rules', () => {
  it('sends cover and documents pages to the start when their content fails, others to /error', () => {
    expect(contentFailureDestination('/account/policies/cover')).toBe('/');
    expect(contentFailureDestination('/account/policies/documents/')).toBe('/');
    expect(contentFailureDestination('/Account/Policies/Cover')).toBe('/');
    expect(contentFailureDestination('/account/policies')).toBe('/error');
    expect(contentFailureDestination('/help/faqs')).toBe('/error');
  });

  it('keeps the address for after sign-in for policy, cover, documents and bills pages only', () => {
    for (const path of [
      '/account/policies',
      '/account/policies/cover',
      '/account/policies/documents',
      '/account/bills-and-payments',
    ]) {
      expect(keepsAddressForAfterLogin(path)).toBe(true);
    }
    expect(keepsAddressForAfterLogin('/account/dashboard')).toBe(false);
    expect(keepsAddressForAfterLogin('/contact-us')).toBe(false);
  });

  it('sends a signed-out visitor of a sign-in-only page to the login page', () => {
    expect(guardRedirect({ page: page('/account/dashboard'), isAuthenticated: false, settings })).toBe(
      '/login',
    );
    expect(guardRedirect({ page: page('/account/dashboard'), isAuthenticated: true, settings })).toBeNull();
  });

  it('sends a signed-in customer opening the login or registration page to the dashboard', () => {
    expect(guardRedirect({ page: page('/login'), isAuthenticated: true, settings })).toBe(
      '/account/dashboard',
    );
    expect(guardRedirect({ page: page('/register'), isAuthenticated: true, settings })).toBe(
      '/account/dashboard',
    );
    expect(guardRedirect({ page: page('/login'), isAuthenticated: false, settings })).toBeNull();
    expect(guardRedirect({ page: page('/help/privacy'), isAuthenticated: true, settings })).toBeNull();
  });

  it('sends a signed-in customer opening the forgotten-password page to where they change their password', () => {
    const forgotten = pageContent.parse(forgottenPasswordContent);
    expect(guardRedirect({ page: forgotten, isAuthenticated: true, settings })).toBe(
      '/profile/login-security',
    );
    // Signed out, the page is the way back in.
    expect(guardRedirect({ page: forgotten, isAuthenticated: false, settings })).toBeNull();
  });
});
