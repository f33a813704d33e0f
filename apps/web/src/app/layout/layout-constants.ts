/*
 * Layout numbers of spec section 9, in one place. Breakpoints may also come from site settings
 * (`breakpoints`); these are the defaults and what the CSS is written for.
 */
export const BREAKPOINT_MOBILE = 768;
export const BREAKPOINT_DESKTOP = 1920;
/** Below this width the main menu collapses behind a Menu button. */
export const MENU_COLLAPSE_WIDTH = 1024;
/** How far the header slides up when the page scrolls down. */
export const HEADER_HIDE_OFFSET = 82;
/** Header spacer: the base height, plus the main-menu row (signed in, desktop), plus the breadcrumbs row. */
export const HEADER_SPACER_BASE = 104;
export const HEADER_SPACER_SIGNED_IN_DESKTOP = 82;
export const HEADER_SPACER_BREADCRUMBS = 30;

export interface SpacerInput {
  isAuthenticated: boolean;
  /** Viewport at or above the menu-collapse width. */
  isDesktop: boolean;
  hasBreadcrumbs: boolean;
}

/** Height of the space kept above the page for the fixed header (spec section 9). */
export function headerSpacerHeight({ isAuthenticated, isDesktop, hasBreadcrumbs }: SpacerInput): number {
  return (
    HEADER_SPACER_BASE +
    (isAuthenticated && isDesktop ? HEADER_SPACER_SIGNED_IN_DESKTOP : 0) +
    (hasBreadcrumbs ? HEADER_SPACER_BREADCRUMBS : 0)
  );
}
