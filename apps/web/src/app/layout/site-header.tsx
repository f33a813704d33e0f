import type { Navigation, SiteSettings } from '@portal/contracts/content';
import { forwardRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { telHref } from '../../content/placeholders';
import { commonText } from '../../content/use-site-settings';
import type { Breadcrumb } from './build-breadcrumbs';
import { Breadcrumbs } from './breadcrumbs';
import { MainNav } from './main-nav';
import { headerMenus } from './nav-items';
import { MENU_TOGGLE_ID, UTILITY_MENU_ID } from './skip-links';
import { UtilityNav } from './utility-nav';

interface Props {
  settings: SiteSettings;
  navigation: Navigation | null;
  isAuthenticated: boolean;
  /** False at the first sign-in's marketing step, before the account's pages are open. */
  showMainMenu: boolean;
  crumbs: readonly Breadcrumb[];
  /** Slid up by the hide offset (the page is scrolling down). */
  hidden: boolean;
  onSignOut: () => void;
  /** Documents not opened yet, by menu item address (issue 40). */
  newCounts?: Readonly<Record<string, number>>;
  /** Messages not opened yet, by menu item address (issue 40 point 6). */
  unreadCounts?: Readonly<Record<string, number>>;
}

const SITE_MENU_ID = 'site-menu';

/** The words beside each menu item that counts something ("{count} new"), for the counts above none. */
function menuBadges(counts: Readonly<Record<string, number>>, words: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(counts)
      .filter(([, count]) => count > 0)
      .map(([url, count]) => [url, words.replace('{count}', String(count))]),
  );
}

/**
 * The fixed header: logo and utility links, a freephone strip, the main menu (a row on wide screens,
 * behind a Menu button below the collapse width) and the breadcrumbs.
 */
export const SiteHeader = forwardRef<HTMLElement, Props>(function SiteHeader(
  {
    settings,
    navigation,
    isAuthenticated,
    showMainMenu,
    crumbs,
    hidden,
    onSignOut,
    newCounts = {},
    unreadCounts = {},
  },
  ref,
) {
  const location = useLocation();
  // The menu closes when the page changes: it is open only for the location it was opened at.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location.key;
  const [focusInside, setFocusInside] = useState(false);

  const menus = headerMenus(navigation?.header ?? [], isAuthenticated);
  const mainItems = showMainMenu ? menus.main : [];
  const utilityItems = menus.utility;
  const texts = {
    main: commonText(settings, 'mainNavigationLabel', 'Main menu'),
    utility: commonText(settings, 'utilityNavigationLabel', 'Account menu'),
    menu: commonText(settings, 'menuButton', 'Menu'),
    closeMenu: commonText(settings, 'closeMenuButton', 'Close menu'),
  };
  const phone = settings.infinityPhoneTracking;
  const homePath = isAuthenticated ? settings.dashboardPage : settings.loginPage;

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusInside(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpenAt(null);
      document.getElementById(MENU_TOGGLE_ID)?.focus();
    }
  };

  const classes = ['site-header'];
  if (hidden && !menuOpen && !focusInside) classes.push('site-header--hidden');
  if (menuOpen) classes.push('site-header--menu-open');

  return (
    // Focus and Escape bubble up from the links and buttons inside; the header itself is not interactive.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <header
      ref={ref}
      className={classes.join(' ')}
      onFocus={() => setFocusInside(true)}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
    >
      <div className="site-header__brand">
        <div className="container site-header__brand-inner">
          <Link to={homePath} className="logo">
            <span className="logo__mark" aria-hidden="true">
              M
            </span>
            <span className="logo__text">{settings.siteName}</span>
            <span className="visually-hidden"> home</span>
          </Link>
          <UtilityNav
            id={UTILITY_MENU_ID}
            className="utility-nav--wide"
            items={utilityItems}
            label={texts.utility}
            signOutText={settings.logoutButtonText}
            isAuthenticated={isAuthenticated}
            onSignOut={onSignOut}
          />
          <button
            type="button"
            id={MENU_TOGGLE_ID}
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls={SITE_MENU_ID}
            onClick={() => setMenuOpenAt(menuOpen ? null : location.key)}
          >
            <span className="menu-toggle__icon" aria-hidden="true" />
            {menuOpen ? texts.closeMenu : texts.menu}
          </button>
        </div>
      </div>
      <div className="site-header__help">
        <div className="container">
          {commonText(settings, 'helpStripText', 'Need help? Call us free on')}{' '}
          <a href={telHref(phone)}>{phone}</a>
        </div>
      </div>
      <div
        id={SITE_MENU_ID}
        className={[
          'site-menu',
          menuOpen ? 'site-menu--open' : '',
          mainItems.length === 0 ? 'site-menu--no-main' : '',
        ].join(' ')}
      >
        <div className="container">
          {mainItems.length > 0 ? (
            <MainNav
              items={mainItems}
              label={texts.main}
              badges={{
                ...menuBadges(newCounts, commonText(settings, 'newInMenu', '{count} new')),
                ...menuBadges(unreadCounts, commonText(settings, 'unreadInMenu', '{count} unread')),
              }}
            />
          ) : null}
          <UtilityNav
            className="utility-nav--narrow"
            items={utilityItems}
            label={texts.utility}
            signOutText={settings.logoutButtonText}
            isAuthenticated={isAuthenticated}
            onSignOut={onSignOut}
          />
        </div>
      </div>
      {crumbs.length > 0 ? (
        <div className="site-header__breadcrumbs">
          <div className="container">
            <Breadcrumbs crumbs={crumbs} label={settings.breadcrumbs.ariaLabel} />
          </div>
        </div>
      ) : null}
    </header>
  );
});
