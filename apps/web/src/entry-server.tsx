import type { RenderPage } from '@portal/contracts/server-render';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { appRoutes } from './app/router';
import { notFoundHeading } from './app/errors/not-found-page';
import { primeMissingPage, primePage } from './content/api/get-content-by-relative-url';
import { primeNavigation } from './content/api/get-navigation';
import { isErrorContext, primeSiteSettings } from './content/api/get-site-settings';
import { setInitialFeatureValues } from './lib/feature-flags/feature-flags';
import { setPageInit } from './lib/page-init';
import { documentTitle } from './lib/use-document-title';

/*
 * Server rendering of the public pages (decision 016). The server (apps/server platform/spa.ts) loads
 * this module from the build and hands it what the content service has for the request: the settings,
 * the navigation and the page. The routes' own loaders run against a content cache filled with exactly
 * that (nothing is fetched), so the HTML is what the SPA itself would render for a signed-out visitor,
 * and the browser hydrates it with the same data.
 */

/**
 * Renders one page, or null when the routes would not show it as is (a redirect, an error): such requests
 * get the SPA's plain page and the browser decides. Without a page (content has none at the address) it
 * renders the not-found page, which the server sends with a 404.
 */
export const renderPage: RenderPage = async (input) => {
  setPageInit(input.pageInit);
  const url = new URL(input.url);
  // The loaders find exactly this content (rendering is per request; a concurrent render primes its own).
  primeSiteSettings(isErrorContext(url.search), input.settings);
  // Without navigation the root loader asks for it, fails and renders the header without it, as in the SPA.
  if (input.navigation) primeNavigation(input.navigation);
  if (input.page) primePage(url.pathname, input.page);
  else primeMissingPage(url.pathname);

  const handler = createStaticHandler(appRoutes());
  const context = await handler.query(new Request(url));
  if (context instanceof Response) return null;
  if (context.statusCode !== 200 || context.errors) return null;
  const expected = input.page ? 'page' : 'notFound';
  const contentData = Object.values(context.loaderData).some(
    (data) => typeof data === 'object' && data !== null && (data as { kind?: string }).kind === expected,
  );
  if (!contentData) return null;

  const router = createStaticRouter(handler.dataRoutes, context);
  // Rendering is synchronous: the visitor's variants hold for exactly this render.
  setInitialFeatureValues(input.flags);
  try {
    const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
    return {
      html,
      hydration: { loaderData: context.loaderData, flags: input.flags, viewed: input.viewed },
      title: documentTitle(input.page ? input.page.meta.title : notFoundHeading(input.settings)),
    };
  } finally {
    setInitialFeatureValues({});
  }
};
