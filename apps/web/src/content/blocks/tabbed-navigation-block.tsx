import type { BlockOf } from '@portal/contracts/content';
import { normaliseContentPath } from '@portal/contracts/content/paths';
import { Link, useLocation } from 'react-router';

/** Links between the sections of one policy; each keeps the policy id of the current page. */
export function TabbedNavigationBlock({ block }: { block: BlockOf<'tabbedNavigation'> }) {
  const location = useLocation();
  const id = new URLSearchParams(location.search).get('id');
  const here = normaliseContentPath(location.pathname);
  return (
    <nav className="tabbed-nav" aria-label={block.ariaLabel}>
      <ul className="tabbed-nav__list">
        {block.tabs.map((tab) => {
          const current = normaliseContentPath(tab.url) === here;
          const to = id ? `${tab.url}?${new URLSearchParams({ id }).toString()}` : tab.url;
          return (
            <li key={tab.id} className="tabbed-nav__item">
              <Link
                to={to}
                className={current ? 'tabbed-nav__link tabbed-nav__link--current' : 'tabbed-nav__link'}
                aria-current={current ? 'page' : undefined}
              >
                {tab.title}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
