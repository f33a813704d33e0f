import type { PageContent, PageType, SiteSettings } from '@portal/contracts/content';
import { normaliseContentPath } from '@portal/contracts/content/paths';
import type { SessionStatus } from './session-machine';

/**
 * The session's routing guards of spec section 4, as pure functions the router's content loader applies
 * (with the shell's two sign-in rules at the end of this file):
 * - a customer in the marketingPreferences step goes to the account root, except on account and error pages;
 * - leaving a page outside the sign-in journey while signed out ends the journey (signs out);
 * - policy, cover, documents, bills and messages pages are remembered for after sign-in.
 */

const POLICY_PAGE = '/account/policies';
const COVER_PAGE = '/account/policies/cover';
const DOCUMENTS_PAGE = '/account/policies/documents';
const BILLS_PAGE = '/account/bills-and-payments';
/** Your messages: a message's notice email links to it (issue 40 point 6). */
const MESSAGES_PAGE = '/account/messages';

/**
 * Pages whose address is kept for after sign-in (spec section 2: policy, cover, documents and bills; and
 * the messages page, which a notice email links to).
 */
const returnAfterLoginPages = new Set([POLICY_PAGE, COVER_PAGE, DOCUMENTS_PAGE, BILLS_PAGE, MESSAGES_PAGE]);

export function keepsAddressForAfterLogin(pathname: string): boolean {
  return returnAfterLoginPages.has(normaliseContentPath(pathname));
}

/**
 * The pages of the sign-in journey ("login pages"): moving between them keeps the journey's session data
 * (state token, chosen factor); leaving any other page while signed out clears it.
 */
const signInJourneyPageTypes: ReadonlySet<PageType> = new Set<PageType>([
  'LoginPage',
  'AuthenticationVerificationPage',
  'AuthenticationChallengePage',
  'RegistrationPage',
  'ConfirmationPage',
  'PasswordPage',
  'ResetPasswordPage',
  'FormSuccessPage',
]);

/** Pages a customer in the marketingPreferences step may stay on (spec: account and error pages). */
const marketingStepPageTypes: ReadonlySet<PageType> = new Set<PageType>([
  'AccountPage',
  'RegistrationMarketingPreferences',
  'ErrorPage',
  'MaintenancePage',
]);

export interface GuardPage {
  type: string;
  requiresAuthentication: boolean;
}

export interface MarketingGuardInput {
  page: GuardPage;
  /** Path (no query) of the page being opened. */
  pathname: string;
  isAuthenticated: boolean;
  /** The session status, or null when there is no session data. */
  status: SessionStatus | null;
  settings: Pick<SiteSettings, 'accountRootPage' | 'errorPage'>;
}

/**
 * Spec: users in marketingPreferences are sent to the account root except on account and error pages.
 * (The shell's guardRedirect applies the two sign-in rules first: sign-in required -> login page, and
 * login or registration page while signed in -> dashboard.) Returns where to go, or null.
 */
export function marketingStepRedirect({
  page,
  pathname,
  isAuthenticated,
  status,
  settings,
}: MarketingGuardInput): string | null {
  if (!isAuthenticated || status !== 'marketingPreferences') return null;
  const path = normaliseContentPath(pathname);
  const allowed =
    marketingStepPageTypes.has(page.type as PageType) ||
    path === normaliseContentPath(settings.accountRootPage) ||
    path === normaliseContentPath(settings.errorPage);
  return allowed ? null : settings.accountRootPage;
}

/**
 * Spec: leaving a non-login page unauthenticated signs the user out. True when the page being left (null
 * on the first page of the visit) is outside the sign-in journey and nobody is signed in, so whatever
 * journey state the tab still holds must go.
 */
export function endsJourneyOnLeave(leavingPageType: string | null, isAuthenticated: boolean): boolean {
  if (isAuthenticated || leavingPageType === null) return false;
  return !signInJourneyPageTypes.has(leavingPageType as PageType);
}

/* The shell's rules (applied by the route loaders) ------------------------------------------------- */

/** Pages that go to the start rather than the error page when their content fails (spec section 4). */
const startOnContentFailure = new Set([COVER_PAGE, DOCUMENTS_PAGE]);

/** Where to go when a page's content cannot be loaded. */
export function contentFailureDestination(pathname: string): string {
  return startOnContentFailure.has(normaliseContentPath(pathname)) ? '/' : '/error';
}

export interface GuardInput {
  page: PageContent;
  isAuthenticated: boolean;
  settings: Pick<SiteSettings, 'loginPage' | 'dashboardPage'>;
}

/**
 * The routing guards of spec section 4 that the shell applies: a page that needs sign-in sends a
 * signed-out visitor to the login page; a signed-in customer opening the login or registration page
 * goes to the dashboard, and one opening the forgotten-password page goes where they change their
 * password while signed in (the page's `signedInUrl`). Returns where to go, or null to show the page.
 * (The marketing-preferences step guard belongs to the sign-in journey, which knows that status.)
 */
export function guardRedirect({ page, isAuthenticated, settings }: GuardInput): string | null {
  if (page.requiresAuthentication && !isAuthenticated) return settings.loginPage;
  if (!isAuthenticated) return null;
  if (page.type === 'LoginPage' || page.type === 'RegistrationPage') return settings.dashboardPage;
  if (page.type === 'ResetPasswordPage') return page.signedInUrl;
  return null;
}
