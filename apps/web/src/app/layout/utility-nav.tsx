import type { NavItem } from '@portal/contracts/content';
import { NavItemLink } from './nav-link';

interface Props {
  items: readonly NavItem[];
  label: string;
  id?: string;
  /** Text of the sign-out button that ends the list for a signed-in customer. */
  signOutText: string;
  isAuthenticated: boolean;
  onSignOut: () => void;
  className?: string;
}

/** Utility links (claims, help, sign in / register) ending in the sign-out button when signed in. */
export function UtilityNav({ items, label, id, signOutText, isAuthenticated, onSignOut, className }: Props) {
  if (items.length === 0 && !isAuthenticated) return null;
  return (
    <nav
      id={id}
      className={className ? `utility-nav ${className}` : 'utility-nav'}
      aria-label={label}
      // With an id it is the target of "Skip to menu" on a wide screen without a main menu.
      tabIndex={id ? -1 : undefined}
    >
      <ul className="utility-nav__list">
        {items.map((item) => (
          <li key={item.id} className="utility-nav__item">
            <NavItemLink item={item} className="utility-nav__link" />
          </li>
        ))}
        {isAuthenticated ? (
          <li className="utility-nav__item">
            <button type="button" className="utility-nav__sign-out" onClick={onSignOut}>
              {signOutText}
            </button>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
