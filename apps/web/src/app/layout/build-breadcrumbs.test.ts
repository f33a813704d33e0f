import { describe, expect, it } from 'vitest';
import { buildBreadcrumbs } from './build-breadcrumbs';

const labels = (path: string, options?: Parameters<typeof buildBreadcrumbs>[1]) =>
  buildBreadcrumbs(path, options).map((c) => c.label);

describe('buildBreadcrumbs', () => {
  it('shows no breadcrumbs for a path of one segment or none', () => {
    expect(buildBreadcrumbs('/')).toEqual([]);
    expect(buildBreadcrumbs('')).toEqual([]);
    expect(buildBreadcrumbs('/login')).toEqual([]);
    expect(buildBreadcrumbs('/contact-us/')).toEqual([]);
    expect(buildBreadcrumbs('/account?id=123')).toEqual([]);
  });

  it('builds one crumb per segment, each linking to the path up to it, the last one current', () => {
    expect(buildBreadcrumbs('/help/accessibility')).toEqual([
      { label: 'Help', href: '/help', current: false },
      { label: 'Accessibility', href: '/help/accessibility', current: true },
    ]);
  });

  it('turns hyphens into spaces', () => {
    expect(labels('/account/bills-and-payments')).toEqual(['Account', 'Bills and payments']);
    expect(labels('/contact-us/message-sent')).toEqual(['Contact us', 'Message sent']);
  });

  it('drops the policies segment but keeps it in the links of the crumbs after it', () => {
    expect(buildBreadcrumbs('/account/policies/cover?id=123X4567890')).toEqual([
      { label: 'Account', href: '/account', current: false },
      { label: 'Cover', href: '/account/policies/cover', current: true },
    ]);
    expect(labels('/account/policies/documents')).toEqual(['Account', 'Documents']);
  });

  it('shows no trail for the policy page itself: one crumb is left once policies is dropped', () => {
    expect(buildBreadcrumbs('/account/policies')).toEqual([]);
    expect(buildBreadcrumbs('/account/policies/?id=708X1000001')).toEqual([]);
  });

  it('shows profile pages under the dashboard alone, without the profile segment', () => {
    expect(buildBreadcrumbs('/profile/personal-details')).toEqual([
      { label: 'Dashboard', href: '/account/dashboard', current: false },
      { label: 'Personal details', href: '/profile/personal-details', current: true },
    ]);
  });

  it('shows login security as "Update your password"', () => {
    expect(labels('/profile/login-security')).toEqual(['Dashboard', 'Update your password']);
  });

  it('takes labels, dropped segments and the dashboard from settings', () => {
    const options = {
      labels: { account: 'Your account', 'bills and payments': 'Bills' },
      dropSegments: ['help'],
      dashboardPath: '/my/home',
    };
    expect(labels('/account/bills-and-payments', options)).toEqual(['Your account', 'Bills']);
    expect(labels('/help/cookies', options)).toEqual([]);
    expect(labels('/help/cookies/essential', options)).toEqual(['Cookies', 'Essential']);
    expect(labels('/profile/contact-details', options)).toEqual(['Home', 'Profile', 'Contact details']);
  });

  it('uses the label content gives the current page', () => {
    expect(labels('/account/policies/cover', { currentLabel: 'Your cover' })).toEqual([
      'Account',
      'Your cover',
    ]);
  });

  it('decodes encoded segments for labels but keeps links as they were', () => {
    expect(buildBreadcrumbs('/help/caf%C3%A9-guide')).toEqual([
      { label: 'Help', href: '/help', current: false },
      { label: 'Café guide', href: '/help/caf%C3%A9-guide', current: true },
    ]);
  });

  it('ignores a trailing slash and repeated slashes', () => {
    expect(labels('/help//faqs/')).toEqual(['Help', 'Faqs']);
  });
});
