import type { NavItem } from '@portal/contracts/content';
import { NavLink as RouterNavLink } from 'react-router';
import { NEW_TAB_NOTE } from '../../content/content-link';

type LinkItem = Pick<NavItem, 'title' | 'url' | 'opensIn'>;

/** A navigation item: site paths through the router (marked current when active), others as plain links. */
export function NavItemLink({ item, className }: { item: LinkItem; className: string }) {
  const newTab = item.opensIn === 'NewTab';
  if (item.url.startsWith('/') && !newTab) {
    return (
      <RouterNavLink
        to={item.url}
        className={({ isActive }) => (isActive ? `${className} is-current` : className)}
        end
      >
        {item.title}
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
