import type { Navigation, SiteSettings } from '@portal/contracts/content';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { commonText } from '../../content/use-site-settings';
import { useSession } from '../../session/session';
import { useCurrentUser } from '../../session/tokens';
import { FullPageLoader } from '../loader/full-page-loader';
import { NavigationLoader } from '../loader/navigation-loader';
import type { ContentRouteData } from '../route-loaders';
import { buildBreadcrumbs } from './build-breadcrumbs';
import { HEADER_HIDE_OFFSET, headerSpacerHeight } from './layout-constants';
import { RouteAnnouncer } from './route-announcer';
import { SiteFooter } from './site-footer';
import { SharedViewBanner } from './shared-view-banner';
import { SiteHeader } from './site-header';
import { MAIN_CONTENT_ID, menuSkipTarget, SkipLinks } from './skip-links';
import { useElementHeight } from './use-element-height';
import { useHideOnScroll } from './use-hide-on-scroll';
import { useMenuNewCounts, useMenuUnreadCounts } from './use-new-document-counts';
import { useMediaQuery } from '../../lib/use-media-query';
import { headerMenus, visibleFor } from './nav-items';

/* The service alert is loaded only while an alert is switched on: the start-up bundle does not carry it. */
const ServiceAlertBanner = lazy(() =>
  import('../../content/service-alert').then((module) => ({ default: module.ServiceAlertBanner })),
);

/** Asked before signing out (spec customer-data §2, §4); loaded when first needed (it renders rich text). */
// The logout modal window (spec customer-data §2, §4), asked when the customer presses Sign out: its
// Logout call to action signs out; Close, the X and Escape keep the customer signed in.
const ContentModal = lazy(() =>
  import('../../content/content-modal').then((module) => ({ default: module.ContentModal })),
);

/** The logout modal needs a call to action that signs out; content without one signs out at once. */
function hasLogoutAction(settings: SiteSettings): boolean {
  const modal = settings.logOutModalWindowBlock;
  return [...modal.primaryCallsToAction, ...modal.secondaryCallsToAction].some(
    (cta) => cta.linkType === 'Logout',
  );
}

function isContentData(data: unknown): data is ContentRouteData {
  return typeof data === 'object' && data !== null && 'kind' in data;
}

/** The page frame of every screen: skip links, header, service alert, main, footer and the loader. */
export function AppLayout({
  settings,
  navigation,
}: {
  settings: SiteSettings;
  navigation: Navigation | null;
}) {
  const location = useLocation();
  const matches = useMatches();
  const { isAuthenticated, inMarketingStep, signOut } = useSession();
  const user = useCurrentUser();
  // How many documents are new, and messages unread, beside the menu's items (issue 40), once the
  // account's pages are open.
  const menuCustomer = isAuthenticated && !inMarketingStep ? user?.customerId : undefined;
  const newCounts = useMenuNewCounts(menuCustomer, location.pathname);
  const unreadCounts = useMenuUnreadCounts(menuCustomer, location.pathname);
  const isDesktop = useMediaQuery(`(min-width: ${settings.breakpoints.menuCollapse}px)`);
  const headerRef = useRef<HTMLElement>(null);
  const headerHeight = useElementHeight(headerRef);
  const scrolledDown = useHideOnScroll(HEADER_HIDE_OFFSET);
  const [askingToSignOut, setAskingToSignOut] = useState(false);
  // Signed out another way (the idle modal, another tab): the question is not asked again at next sign-in.
  if (askingToSignOut && !isAuthenticated) setAskingToSignOut(false);
  const onSignOut = () => {
    if (hasLogoutAction(settings)) {
      setAskingToSignOut(true);
      return;
    }
    console.error('The logout modal has no Logout call to action: signing out without asking');
    void signOut(settings.loginPage);
  };

  // Breadcrumbs belong to pages content knows; a not-found or error state has no trail.
  const contentData = matches.map((m) => m.data).find(isContentData);
  const page = contentData?.kind === 'page' ? contentData.page : undefined;
  const crumbs = page
    ? buildBreadcrumbs(location.pathname, {
        dropSegments: settings.breadcrumbs.dropSegments,
        labels: settings.breadcrumbs.labels,
        dashboardPath: settings.dashboardPage,
        currentLabel: page.breadcrumbTitle,
      })
    : [];

  // The marketing step comes before the account: its pages are not open yet (the guards send the customer
  // back to the step), so their menu is not offered.
  const showMainMenu = !inMarketingStep;
  // The spec's spacer sizes, never less than the header really is (text zoom, wrapped links).
  const spacer = Math.max(
    headerSpacerHeight({
      // The spec's extra row for a signed-in customer is the main menu: none at the marketing step.
      isAuthenticated: isAuthenticated && showMainMenu,
      isDesktop,
      hasBreadcrumbs: crumbs.length > 0,
    }),
    headerHeight,
  );
  const footerItems = visibleFor(navigation?.footer ?? [], isAuthenticated);
  // Set through the DOM, not a style attribute: a server-rendered page's markup carries no inline style
  // (the CSP allows none), and the CSS classes give the signed-out sizes until this runs.
  const spacerRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    // Before the header's size has been observed (the first render), read it now: the spacer is never
    // set smaller than the header is, not even for a frame (that moved a rendered page up and back).
    const drawn = headerHeight > 0 ? 0 : (headerRef.current?.getBoundingClientRect().height ?? 0);
    if (spacerRef.current) spacerRef.current.style.height = `${Math.max(spacer, Math.ceil(drawn))}px`;
  }, [spacer, headerHeight]);
  const menus = headerMenus(navigation?.header ?? [], isAuthenticated);
  const menuTarget = menuSkipTarget({
    isDesktop,
    hasMainMenu: showMainMenu && menus.main.length > 0,
    hasUtilityMenu: menus.utility.length > 0 || isAuthenticated,
  });

  // Lets the CSS keep focused elements clear of the fixed header (scroll-padding, WCAG 2.4.11).
  useEffect(() => {
    document.documentElement.style.setProperty('--header-height', `${spacer}px`);
  }, [spacer]);

  return (
    <div className="app">
      <SkipLinks texts={settings.skipLinks} menuTarget={menuTarget} />
      <SiteHeader
        ref={headerRef}
        settings={settings}
        navigation={navigation}
        isAuthenticated={isAuthenticated}
        showMainMenu={showMainMenu}
        crumbs={crumbs}
        hidden={scrolledDown}
        onSignOut={onSignOut}
        newCounts={newCounts}
        unreadCounts={unreadCounts}
      />
      {askingToSignOut ? (
        <Suspense fallback={null}>
          <ContentModal content={settings.logOutModalWindowBlock} onClose={() => setAskingToSignOut(false)} />
        </Suspense>
      ) : null}
      <div
        ref={spacerRef}
        className={crumbs.length > 0 ? 'header-spacer header-spacer--breadcrumbs' : 'header-spacer'}
        aria-hidden="true"
      />
      <div className="container">
        <SharedViewBanner />
        {settings.serviceAlert?.visible ? (
          <Suspense fallback={null}>
            <ServiceAlertBanner alert={settings.serviceAlert} />
          </Suspense>
        ) : null}
      </div>
      <main id={MAIN_CONTENT_ID} className="main" tabIndex={-1}>
        <div className="container">
          <Outlet />
        </div>
      </main>
      <SiteFooter
        items={footerItems}
        label={commonText(settings, 'footerNavigationLabel', 'Footer links')}
        copyright={settings.commonTexts.copyright}
      />
      <FullPageLoader />
      <NavigationLoader />
      <RouteAnnouncer />
    </div>
  );
}
