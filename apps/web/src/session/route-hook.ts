import type { SiteSettings } from '@portal/contracts/content';
import { endsJourneyOnLeave, marketingStepRedirect, type GuardPage } from './guards';
import { signOut } from './sign-out';
import { getAuthSnapshot } from './session-store';

/** Type of the content page the router last showed (null before the first). */
let shownPageType: string | null = null;

export interface ContentNavigation {
  page: GuardPage;
  /** Path (no query) of the page being opened. */
  pathname: string;
  settings: Pick<SiteSettings, 'accountRootPage' | 'errorPage'>;
}

/**
 * The session's part of every content navigation, called by the router's content loader after the
 * shell's sign-in rules passed: ends a sign-in journey left for a page outside it while signed out, and
 * applies the marketing-step guard. Returns where to go instead, or null; records the page as shown.
 */
export async function sessionGuard({ page, pathname, settings }: ContentNavigation): Promise<string | null> {
  const { isAuthenticated, data } = getAuthSnapshot();
  if (data && endsJourneyOnLeave(shownPageType, isAuthenticated)) {
    await signOut({ reason: 'journeyLeft' });
  }
  const redirectTo = marketingStepRedirect({
    page,
    pathname,
    isAuthenticated,
    status: getAuthSnapshot().data?.status ?? null,
    settings,
  });
  if (redirectTo === null) shownPageType = page.type;
  return redirectTo;
}

/** Forgets the last shown page (tests). */
export function resetSessionGuard(): void {
  shownPageType = null;
}
