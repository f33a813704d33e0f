/*
 * Layout numbers of spec section 9, in one place (the breakpoints, mobile 768 px, menu collapse 1024 px,
 * desktop 1920 px, are in the CSS).
 */
/** How far the header slides up when the page scrolls down. */
export const HEADER_HIDE_OFFSET = 82;
/** Header spacer: the base height, plus the main-menu row (signed in, desktop), plus the breadcrumbs row. */
const HEADER_SPACER_BASE = 104;
const HEADER_SPACER_SIGNED_IN_DESKTOP = 82;
const HEADER_SPACER_BREADCRUMBS = 30;

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
