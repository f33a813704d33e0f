import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { getPageInit } from '../lib/page-init';

export const NEW_TAB_NOTE = '(opens in a new tab)';

export interface ContentLinkProps {
  href: string;
  opensIn?: 'NewTab' | 'SameTab';
  className?: string;
  children: ReactNode;
  onClick?: () => void;
}

/**
 * The in-app path of a link to this site: a site path as it is, a full address on this origin without its
 * origin; undefined for anything else (another site, tel:, mailto:, #anchor).
 */
function sameOriginPath(href: string, origin = siteOrigin()): string | undefined {
  if (href.startsWith('/')) return href.startsWith('//') ? undefined : href;
  if (!/^https?:\/\//i.test(href)) return undefined;
  try {
    const url = new URL(href);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : undefined;
  } catch {
    return undefined;
  }
}

/** The site's own origin: the page's, or on the server the one the sign-in returns to (page init). */
function siteOrigin(): string {
  return typeof window === 'undefined'
    ? new URL(getPageInit().identity.redirectUri).origin
    : window.location.origin;
}

/**
 * A link from content (spec customer-data §4): NewTab opens a new tab; otherwise links to this site, as a
 * path or a full address on this origin, move the router, and anything else (another site, tel, mailto)
 * replaces the location as a plain link.
 */
export function ContentLink({ href, opensIn, className, children, onClick }: ContentLinkProps) {
  const newTab = opensIn === 'NewTab';
  const inApp = newTab ? undefined : sameOriginPath(href);
  if (inApp !== undefined) {
    return (
      <Link to={inApp} className={className} onClick={onClick}>
        {children}
      </Link>
    );
  }
  return (
    <a
      href={href}
      className={className}
      onClick={onClick}
      target={newTab ? '_blank' : undefined}
      rel={newTab ? 'noopener noreferrer' : undefined}
    >
      {children}
      {/* The space sits outside the hidden span so every name computation keeps the words apart. */}
      {newTab ? (
        <>
          {' '}
          <span className="visually-hidden">{NEW_TAB_NOTE}</span>
        </>
      ) : null}
    </a>
  );
}
