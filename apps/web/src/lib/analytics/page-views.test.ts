import { createMemoryRouter, redirect } from 'react-router';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { analyticsPath, trackPageViews, VIRTUAL_PAGE_VIEW_EVENT } from './page-views';
import {
  dashboardPolicyViewPath,
  NAV_POLICIES_VIEW_PATH,
  trackDashboardPolicyView,
  trackNavPoliciesView,
} from './virtual-views';

const views = () => (window.dataLayer ?? []) as Array<Record<string, unknown>>;

afterEach(() => {
  delete window.dataLayer;
});

describe('analyticsPath', () => {
  it('drops query strings that could carry tokens or personal data', () => {
    expect(analyticsPath('/register/activate', '?token=abcDEF123')).toBe('/register/activate');
    expect(analyticsPath('/login/callback', '?code=xyz&state=abc')).toBe('/login/callback');
    expect(analyticsPath('/login', `?redirect_url=${btoa('/x?t={statusToken}')}&RelayState=%2Fa`)).toBe(
      '/login',
    );
    expect(analyticsPath('/account/policies', '?id=102X4567891')).toBe('/account/policies');
  });

  it('keeps the harmless parameters that say which variant of a page was seen', () => {
    expect(analyticsPath('/register', '?warning=bad-token&token=1')).toBe('/register?warning=bad-token');
    expect(analyticsPath('/contact-us', '?primary=2')).toBe('/contact-us?primary=2');
  });

  it('redacts path segments that look like emails, tokens or long numbers', () => {
    expect(analyticsPath('/x/jane%40example.com/y')).toBe('/x/redacted/y');
    expect(analyticsPath('/reset/AbCdEfGhIjKlMnOpQrStUvWxYz012345')).toBe('/reset/redacted');
    expect(analyticsPath('/customers/1000001')).toBe('/customers/redacted');
    expect(analyticsPath('/help/terms-of-use')).toBe('/help/terms-of-use');
  });
});

describe('trackPageViews', () => {
  it('pushes one virtual page view per route change, with the content title and type, after redirects', async () => {
    const router = createMemoryRouter(
      [
        { id: 'root', path: '/', loader: () => redirect('/login') },
        {
          id: 'login',
          path: '/login',
          loader: () => ({
            kind: 'page',
            page: { type: 'LoginPage', meta: { title: 'Sign in - Meridian Mutual' } },
          }),
        },
        {
          id: 'activate',
          path: '/register/activate',
          loader: () => ({
            kind: 'page',
            page: { type: 'PasswordPage', meta: { title: 'Create your password' } },
          }),
        },
      ],
      { initialEntries: ['/'] },
    );
    const stop = trackPageViews(router);
    await waitFor(() => expect(router.state.initialized).toBe(true));
    await router.navigate('/register/activate?token=secret-token-value');
    stop();
    await router.navigate('/login');

    const pushed = views().filter((v) => v['event'] === VIRTUAL_PAGE_VIEW_EVENT);
    expect(pushed.map((v) => v['virtualPagePath'])).toEqual(['/login', '/register/activate']);
    expect(pushed[0]).toMatchObject({ virtualPageTitle: 'Sign in - Meridian Mutual', pageType: 'LoginPage' });
    expect(pushed[1]).toMatchObject({ virtualPageTitle: 'Create your password', pageType: 'PasswordPage' });
    expect(JSON.stringify(window.dataLayer)).not.toContain('secret-token-value');
  });
});

describe('the spec virtual views', () => {
  it('pushes /dcs/account/dashboard/policies/{elementTitle}/ and /dcs/nav/policies/', () => {
    trackDashboardPolicyView('Home Insurance');
    trackNavPoliciesView();
    expect(views().map((v) => v['virtualPagePath'])).toEqual([
      '/dcs/account/dashboard/policies/home-insurance/',
      '/dcs/nav/policies/',
    ]);
    expect(NAV_POLICIES_VIEW_PATH).toBe('/dcs/nav/policies/');
    expect(dashboardPolicyViewPath('Fine Art & Collectables')).toBe(
      '/dcs/account/dashboard/policies/fine-art-collectables/',
    );
  });
});
