import type { NavItem } from '@portal/contracts/content';

type Visible = Pick<NavItem, 'requiresAuthentication' | 'hideWhenAuthenticated'>;

/** Items for the visitor's state: sign-in-only items need a session; sign-in/register links hide with one. */
export function visibleFor<T extends Visible>(items: readonly T[], isAuthenticated: boolean): T[] {
  return items.filter((item) =>
    isAuthenticated ? !item.hideWhenAuthenticated : !item.requiresAuthentication,
  );
}
