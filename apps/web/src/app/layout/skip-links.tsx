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

function isShown(element: HTMLElement): boolean {
  return element.getClientRects().length > 0;
}

/** Moves focus (not only the scroll position) so the next Tab starts from the target. */
function focusTarget(event: MouseEvent<HTMLAnchorElement>, ids: readonly string[]) {
  for (const id of ids) {
    const target = document.getElementById(id);
    if (!target || !isShown(target)) continue;
    event.preventDefault();
    if (!target.matches('a, button, input, select, textarea') && !target.hasAttribute('tabindex')) {
      target.setAttribute('tabindex', '-1');
    }
    target.focus();
    target.scrollIntoView?.({ block: 'nearest' });
    return;
  }
}

/** Skip links to the main content, the menu and the footer: the first things a keyboard user reaches. */
export function SkipLinks({ texts }: { texts: SkipLinkTexts }) {
  return (
    <div className="skip-links">
      <a
        className="skip-link"
        href={`#${MAIN_CONTENT_ID}`}
        onClick={(e) => focusTarget(e, [MAIN_CONTENT_ID])}
      >
        {texts.content}
      </a>
      <a
        className="skip-link"
        href={`#${MAIN_MENU_ID}`}
        // On narrow screens the menu sits behind its button; otherwise the menu itself, or the account links.
        onClick={(e) => focusTarget(e, [MENU_TOGGLE_ID, MAIN_MENU_ID, UTILITY_MENU_ID])}
      >
        {texts.menu}
      </a>
      <a className="skip-link" href={`#${FOOTER_ID}`} onClick={(e) => focusTarget(e, [FOOTER_ID])}>
        {texts.footer}
      </a>
    </div>
  );
}
