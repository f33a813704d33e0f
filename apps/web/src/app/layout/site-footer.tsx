import type { NavItem } from '@portal/contracts/content';
import { FOOTER_ID } from './skip-links';
import { NavItemLink } from './nav-link';

export function SiteFooter({
  items,
  label,
  copyright,
}: {
  items: readonly NavItem[];
  label: string;
  copyright?: string;
}) {
  return (
    <footer id={FOOTER_ID} className="site-footer" tabIndex={-1}>
      <div className="container">
        {items.length > 0 ? (
          <nav aria-label={label}>
            <ul className="site-footer__list">
              {items.map((item) => (
                <li key={item.id} className="site-footer__item">
                  <NavItemLink item={item} className="site-footer__link" />
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {copyright ? <p className="site-footer__legal">{copyright}</p> : null}
      </div>
    </footer>
  );
}
