import { normaliseContentPath, type PageContent, type SiteSettings } from '@portal/contracts/content';
import { keepsAddressForAfterLogin } from '../lib/auth/guards';

const COVER_PAGE = '/account/policies/cover';
const DOCUMENTS_PAGE = '/account/policies/documents';

/** Pages that go to the start rather than the error page when their content fails (spec section 4). */
const startOnContentFailure = new Set([COVER_PAGE, DOCUMENTS_PAGE]);

/** Pages whose address is kept for after sign-in: the session layer owns the list (sign-out uses it too). */
export { keepsAddressForAfterLogin };

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
 * goes to the dashboard. Returns where to go, or null to show the page. (The marketing-preferences
 * step guard belongs to the sign-in journey, which knows that status.)
 */
export function guardRedirect({ page, isAuthenticated, settings }: GuardInput): string | null {
  if (page.requiresAuthentication && !isAuthenticated) return settings.loginPage;
  if (isAuthenticated && (page.type === 'LoginPage' || page.type === 'RegistrationPage'))
    return settings.dashboardPage;
  return null;
}
