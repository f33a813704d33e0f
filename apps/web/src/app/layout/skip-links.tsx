import type { MouseEvent } from 'react';

export interface SkipLinkTexts {
  content: string;
  menu: string;
  footer: string;
}

export const MAIN_CONTENT_ID = 'main-content';
export const MAIN_MENU_ID = 'main-menu';
export const UTILITY_MENU_ID = 'utility-menu';
export const MENU_TOGGLE_ID = 'menu-toggle';
export const FOOTER_ID = 'footer';

/**
 * Where "Skip to menu" leads on this screen: below the collapse width the Menu button (the menu sits
 * behind it); on a wide screen the main menu, or for a visitor, who has none, the account links. Null
 * when the screen shows no menu at all: the link is then left out rather than leading nowhere.
 */
export function menuSkipTarget(options: {
  isDesktop: boolean;
  hasMainMenu: boolean;
  hasUtilityMenu: boolean;
}): string | null {
  if (!options.isDesktop) return MENU_TOGGLE_ID;
  if (options.hasMainMenu) return MAIN_MENU_ID;
  return options.hasUtilityMenu ? UTILITY_MENU_ID : null;
}

/** Moves focus (not only the scroll position) so the next Tab starts from the target. */
function focusTarget(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target || target.getClientRects().length === 0) return;
  event.preventDefault();
  if (!target.matches('a, button, input, select, textarea') && !target.hasAttribute('tabindex')) {
    target.setAttribute('tabindex', '-1');
  }
  target.focus();
  target.scrollIntoView?.({ block: 'nearest' });
}

function SkipLink({ target, text }: { target: string; text: string }) {
  return (
    <a className="skip-link" href={`#${target}`} onClick={(e) => focusTarget(e, target)}>
      {text}
    </a>
  );
}

/**
 * Skip links to the main content, the menu and the footer: the first things a keyboard user reaches.
 * Each leads to an element that is on the screen; the menu link only when there is a menu.
 */
export function SkipLinks({ texts, menuTarget }: { texts: SkipLinkTexts; menuTarget: string | null }) {
  return (
    <div className="skip-links">
      <SkipLink target={MAIN_CONTENT_ID} text={texts.content} />
      {menuTarget ? <SkipLink target={menuTarget} text={texts.menu} /> : null}
      <SkipLink target={FOOTER_ID} text={texts.footer} />
    </div>
  );
}
