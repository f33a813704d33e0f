import type { NavItem } from '@portal/contracts/content';
import { NavLink as RouterNavLink } from 'react-router';
import { NEW_TAB_NOTE } from '../../content/content-link';

type LinkItem = Pick<NavItem, 'title' | 'url' | 'opensIn'>;

/** A navigation item: site paths through the router (marked current when active), others as plain links. */
export function NavItemLink({
  item,
  className,
  badge,
}: {
  item: LinkItem;
  className: string;
  /** Shown after the title, and part of the link's name ("Bills and payments 2 new"). */
  badge?: string | undefined;
}) {
  const newTab = item.opensIn === 'NewTab';
  if (item.url.startsWith('/') && !newTab) {
    return (
      <RouterNavLink
        to={item.url}
        className={({ isActive }) => (isActive ? `${className} is-current` : className)}
        end
      >
        {item.title}
        {badge ? <span className="main-nav__badge"> {badge}</span> : null}
      </RouterNavLink>
    );
  }
  return (
    <a
      href={item.url}
      className={className}
      target={newTab ? '_blank' : undefined}
      rel={newTab ? 'noopener noreferrer' : undefined}
    >
      {item.title}
      {newTab ? <span className="visually-hidden"> {NEW_TAB_NOTE}</span> : null}
    </a>
  );
}
