import { pageContent, type PageOf } from '@portal/contracts/content';
import { act, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { routerNavigator } from '../../app/router';
import { registerNavigator } from '../../lib/app-navigation';
import { setPageInit } from '../../lib/page-init';
import { testPageInit } from '../../test/content-fixtures';
import { renderWithRoot } from '../../test/render-with-root';
import login from '../../../../../content/pages/login.json';
import loginVerify from '../../../../../content/pages/login-verify.json';
import loginVerifyChallenge from '../../../../../content/pages/login-verify-challenge.json';

/** The real content of the sign-in pages, parsed with the contract as the SPA receives it. */
export const contentPages = {
  login: pageContent.parse(login) as PageOf<'LoginPage'>,
  verify: pageContent.parse(loginVerify) as PageOf<'AuthenticationVerificationPage'>,
  challenge: pageContent.parse(loginVerifyChallenge) as PageOf<'AuthenticationChallengePage'>,
};

export type { PageOf };

/**
 * Renders a page under a root route with site settings and page init, with the memory router registered
 * as the app's navigator (so the session's navigation is observable in `router.state.location`).
 * `visited()` lists every path the router has shown, in order: the test router renders the same page at
 * every path, so a page that leaves (to the verify page, say) may run again there and move on before a
 * test looks at `location()`.
 */
export async function renderAuthPage(ui: ReactNode, path = '/') {
  setPageInit(testPageInit);
  const rendered = renderWithRoot(ui, { path });
  const unregister = registerNavigator(routerNavigator(rendered.router));
  const visited = [rendered.router.state.location.pathname];
  rendered.router.subscribe(({ location }) => {
    if (visited.at(-1) !== location.pathname) visited.push(location.pathname);
  });
  // The root route's loader (site settings) resolves before the page renders.
  await waitFor(() => expect(rendered.router.state.initialized).toBe(true));
  await act(() => Promise.resolve());
  return {
    ...rendered,
    unregister,
    location: () => rendered.router.state.location,
    visited: () => [...visited],
  };
}
