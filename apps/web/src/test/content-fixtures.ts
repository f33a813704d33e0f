import {
  navigation as navigationSchema,
  pageContent,
  siteSettings as siteSettingsSchema,
  type Navigation,
  type PageContent,
  type PageContentInput,
  type SiteSettings,
  type SiteSettingsInput,
} from '@portal/contracts/content';
import type { PageInitSettings } from '@portal/contracts/page-init';

/*
 * Content for shell tests, parsed with the contracts so a fixture that drifts from the contract fails
 * loudly here rather than as a confusing render difference.
 */

const TEST_ORIGIN = 'http://portal.test';

export const testPageInit: PageInitSettings = {
  environment: 'test',
  portalBaseUrl: TEST_ORIGIN,
  contentBaseUrl: `${TEST_ORIGIN}/content-svc`,
  accountBaseUrl: `${TEST_ORIGIN}/account-svc`,
  documentBaseUrl: TEST_ORIGIN,
  policyBaseUrl: TEST_ORIGIN,
  eventLoggingBaseUrl: TEST_ORIGIN,
  registrationBaseUrl: TEST_ORIGIN,
  identity: {
    orgUrl: `${TEST_ORIGIN}/identity`,
    issuer: `${TEST_ORIGIN}/identity/oauth2/default`,
    clientId: 'portal-spa',
    redirectUri: `${TEST_ORIGIN}/login/callback`,
    postLogoutRedirectUri: `${TEST_ORIGIN}/login`,
    scopes: ['openid', 'portal.customer'],
    mfaVerifyUrl: `${TEST_ORIGIN}/identity/api/v1/authn/factors/{factorId}/verify`,
    otpVerifyUrl: `${TEST_ORIGIN}/identity/api/v1/authn/factors/{factorId}/verify`,
  },
  featureFlags: { sdkKey: 'sdk-test', apiHost: `${TEST_ORIGIN}/content-svc` },
};

const modal = (id: string) => ({ id, heading: `Heading of ${id}` });

export const settingsInput: SiteSettingsInput = {
  id: 'site-settings',
  type: 'SiteSettings',
  siteName: 'Meridian Mutual',
  loginPage: '/login',
  accountRootPage: '/account',
  dashboardPage: '/account/dashboard',
  passkeyOfferPage: '/account/passkey',
  maintenancePage: '/maintenance',
  errorPage: '/error',
  infinityPhoneTracking: '0800 765 4321',
  globalPasswordRequirementsBlock: {
    minPasswordLength: 12,
    lowercaseChar: false,
    uppercaseChar: false,
    numberChar: false,
    specialChar: false,
    heading: 'Your password must have:',
    minLengthText: 'at least {minLength} characters',
    lowercaseText: 'a lower case letter',
    uppercaseText: 'a capital letter',
    numberText: 'a number',
    specialText: 'a symbol',
    noSpacesText: 'no spaces',
  },
  policyTypeMappingText: { PHL: 'Home Insurance' },
  userCacheTTL: 1,
  logOutModalWindowBlock: modal('log-out'),
  welcomeModalWindowBlock: modal('welcome'),
  welcomeBackWindowBlock: modal('welcome-back'),
  gwInterstitialModalWindowBlock: modal('interstitial'),
  gwInterstitialBespokeModalWindowBlock: modal('bespoke'),
  idleTimeoutMinutes: 15,
  idleModal: {
    heading: 'Are you still there?',
    bodyText: '{seconds}',
    staySignedInText: 'Stay',
    signOutText: 'Leave',
  },
  serviceAlert: { visible: false, title: 'Planned maintenance', message: '<p>Sunday 1am to 5am.</p>' },
  featureFlagKey: 'sdk-test',
  fallback: { heading: 'h', body: 'b', refreshAdvice: 'r', urgentHelp: 'u {phone}' },
  loaderText: "Thank you for being patient. We're just loading your details.",
  unexpectedErrorHeading: 'Unexpected Application Error!',
  skipLinks: { content: 'Skip to main content', menu: 'Skip to menu', footer: 'Skip to footer' },
  logoutButtonText: 'Sign out',
  breadcrumbs: {
    homeLabel: 'Your account',
    ariaLabel: 'Breadcrumb',
    dropSegments: ['policies', 'profile'],
    labels: { account: 'Your account', 'login-security': 'Update your password' },
  },
  commonTexts: {
    mainNavigationLabel: 'Main menu',
    utilityNavigationLabel: 'Account menu',
    footerNavigationLabel: 'Footer links',
  },
};

export function makeSettings(overrides: Partial<SiteSettingsInput> = {}): SiteSettings {
  return siteSettingsSchema.parse({ ...settingsInput, ...overrides });
}

const navigationInput = {
  header: [
    {
      id: 'nav-dashboard',
      title: 'Dashboard',
      url: '/account/dashboard',
      group: 'main',
      requiresAuthentication: true,
    },
    {
      id: 'nav-profile',
      title: 'Your details',
      url: '/profile/personal-details',
      group: 'main',
      requiresAuthentication: true,
      children: [
        {
          id: 'nav-personal',
          title: 'Personal details',
          url: '/profile/personal-details',
          group: 'main',
          requiresAuthentication: true,
        },
        {
          id: 'nav-security',
          title: 'Update your password',
          url: '/profile/login-security',
          group: 'main',
          requiresAuthentication: true,
        },
      ],
    },
    { id: 'utility-help', title: 'Help', url: '/help/faqs', group: 'utility' },
    { id: 'utility-sign-in', title: 'Sign in', url: '/login', group: 'utility', hideWhenAuthenticated: true },
  ],
  footer: [
    { id: 'footer-accessibility', title: 'Accessibility', url: '/help/accessibility', group: 'footer' },
    { id: 'footer-privacy', title: 'Privacy notice', url: '/help/privacy', group: 'footer' },
  ],
};

export const testNavigation: Navigation = navigationSchema.parse(navigationInput);

const base = (url: string, heading: string, extra: Record<string, unknown> = {}) => ({
  id: `page-${url.replace(/\W+/g, '-')}`,
  url,
  name: heading,
  requiresAuthentication: false,
  meta: { title: heading },
  heading,
  ...extra,
});

export const pageInputs: Record<string, PageContentInput> = {
  '/login': { ...base('/login', 'Sign in to your account'), type: 'LoginPage' },
  '/register': { ...base('/register', 'Register for an online account'), type: 'RegistrationPage' },
  '/account/dashboard': {
    ...base('/account/dashboard', 'Your dashboard', { requiresAuthentication: true }),
    type: 'DashboardPage',
  },
  '/account/policies': {
    ...base('/account/policies', 'Your policy', { requiresAuthentication: true }),
    type: 'PolicyPage',
  },
  '/account/policies/cover': {
    ...base('/account/policies/cover', 'What you are covered for', { requiresAuthentication: true }),
    type: 'StandardPageTemplate',
  },
  '/profile/login-security': {
    ...base('/profile/login-security', 'Update your password', { requiresAuthentication: true }),
    type: 'StandardPageTemplate',
  },
  '/help/accessibility': {
    ...base('/help/accessibility', 'Accessibility statement', {
      intro: '<p>We want everyone to be able to use this website.</p>',
      blocks: [
        { id: 'b1', type: 'richText', heading: 'Using this website', html: '<p>You can zoom to 400%.</p>' },
      ],
    }),
    type: 'StandardPageTemplate',
  },
  '/help/privacy': {
    ...base('/help/privacy', 'Privacy notice', { intro: '<p>How we use your information.</p>' }),
    type: 'StandardPageTemplate',
  },
  '/error': {
    ...base('/error', 'Something went wrong', {
      intro: '<p>Sorry, there is a problem with the service.</p>',
    }),
    type: 'ErrorPage',
  },
  '/maintenance': {
    ...base('/maintenance', 'Sorry, the service is unavailable', {
      intro: '<p>We are making improvements.</p>',
    }),
    type: 'MaintenancePage',
  },
};

export function page(url: string, overrides: Record<string, unknown> = {}): PageContent {
  const input = pageInputs[url];
  if (!input) throw new Error(`No fixture page ${url}`);
  return pageContent.parse({ ...input, ...overrides });
}
