import type { ReactNode } from 'react';
import { SITE_NAME } from '../../lib/use-document-title';

/**
 * A page frame that needs nothing from the content service or the router: for the states in which
 * those have failed.
 */
export function MinimalPage({ children }: { children: ReactNode }) {
  return (
    <div className="minimal-page">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <header className="minimal-page__header">
        <a className="logo" href="/">
          <span className="logo__mark" aria-hidden="true">
            M
          </span>
          <span className="logo__text">{SITE_NAME}</span>
        </a>
      </header>
      <main id="main-content" className="main" tabIndex={-1}>
        <div className="container">{children}</div>
      </main>
    </div>
  );
}
