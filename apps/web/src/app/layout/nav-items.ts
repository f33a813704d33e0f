import type { NavItem } from '@portal/contracts/content';

type Visible = Pick<NavItem, 'requiresAuthentication' | 'hideWhenAuthenticated'>;

/** Items for the visitor's state: sign-in-only items need a session; sign-in/register links hide with one. */
export function visibleFor<T extends Visible>(items: readonly T[], isAuthenticated: boolean): T[] {
  return items.filter((item) =>
    isAuthenticated ? !item.hideWhenAuthenticated : !item.requiresAuthentication,
  );
}

/** The header's two lists for the visitor's state: the main menu and the utility (account) links. */
export function headerMenus<T extends Visible & { group?: string }>(
  header: readonly T[],
  isAuthenticated: boolean,
): { main: T[]; utility: T[] } {
  return {
    main: visibleFor(
      header.filter((i) => i.group === 'main'),
      isAuthenticated,
    ),
    utility: visibleFor(
      header.filter((i) => i.group === 'utility'),
      isAuthenticated,
    ),
  };
}
