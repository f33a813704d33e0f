import { Link } from 'react-router';
import type { Breadcrumb } from './build-breadcrumbs';

export function Breadcrumbs({
  crumbs,
  label = 'Breadcrumb',
}: {
  crumbs: readonly Breadcrumb[];
  label?: string;
}) {
  if (crumbs.length === 0) return null;
  return (
    <nav className="breadcrumbs" aria-label={label}>
      <ol className="breadcrumbs__list">
        {crumbs.map((crumb) => (
          <li key={crumb.href} className="breadcrumbs__item">
            {crumb.current ? (
              <span aria-current="page">{crumb.label}</span>
            ) : (
              <Link to={crumb.href} className="breadcrumbs__link">
                {crumb.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
