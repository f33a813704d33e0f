import { trackVirtualPageView } from './page-views';

/**
 * The spec's fixed virtual page views (customer-data section 2): one when a policy card on the dashboard is
 * opened, and one when the policies navigation is opened. They are not real routes.
 */
export const NAV_POLICIES_VIEW_PATH = '/dcs/nav/policies/';

/** "Home Insurance" -> "home-insurance": readable in reports and safe in a path. */
function elementTitleSlug(elementTitle: string): string {
  const slug = elementTitle
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'untitled';
}

/** `/dcs/account/dashboard/policies/{elementTitle}/`. */
export function dashboardPolicyViewPath(elementTitle: string): string {
  return `/dcs/account/dashboard/policies/${elementTitleSlug(elementTitle)}/`;
}

/** A policy element (card, link) on the dashboard was opened; pass its title (the product name), never a number. */
export function trackDashboardPolicyView(elementTitle: string): void {
  trackVirtualPageView({ path: dashboardPolicyViewPath(elementTitle) });
}

/** The policies navigation was opened. */
export function trackNavPoliciesView(): void {
  trackVirtualPageView({ path: NAV_POLICIES_VIEW_PATH });
}
