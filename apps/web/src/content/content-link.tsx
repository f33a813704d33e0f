import type { ReactNode } from 'react';
import { Link } from 'react-router';

export const NEW_TAB_NOTE = '(opens in a new tab)';

export interface ContentLinkProps {
  href: string;
  opensIn?: 'NewTab' | 'SameTab';
  className?: string;
  children: ReactNode;
  onClick?: () => void;
}

/** A link from content: site paths move the router, anything else (https, tel, mailto) is a plain link. */
export function ContentLink({ href, opensIn, className, children, onClick }: ContentLinkProps) {
  const newTab = opensIn === 'NewTab';
  if (href.startsWith('/') && !href.startsWith('//') && !newTab) {
    return (
      <Link to={href} className={className} onClick={onClick}>
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
      {newTab ? <span className="visually-hidden"> {NEW_TAB_NOTE}</span> : null}
    </a>
  );
}
