import type { Navigation, PageContent, SiteSettings } from '@portal/contracts/content';
import type { PageInitSettings } from '@portal/contracts/page-init';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { appRoutes } from './app/router';
import { primePage } from './content/api/get-content-by-relative-url';
import { primeNavigation } from './content/api/get-navigation';
import { isErrorContext, primeSiteSettings } from './content/api/get-site-settings';
import { setInitialFeatureValues } from './lib/feature-flags/feature-flags';
import { setPageInit } from './lib/page-init';
import { documentTitle } from './lib/use-document-title';
import type { HydrationPayload } from './app/hydration';

/*
 * Server rendering of the public pages (decision 016). The server (apps/server platform/spa.ts) loads
 * this module from the build and hands it what the content service has for the request: the settings,
 * the navigation and the page. The routes' own loaders run against a content cache filled with exactly
 * that (nothing is fetched), so the HTML is what the SPA itself would render for a signed-out visitor,
 * and the browser hydrates it with the same data.
 */

export interface ServerRenderInput {
  /** The full request URL (origin, path and query). */
  url: string;
  pageInit: PageInitSettings;
  settings: SiteSettings;
  navigation: Navigation | null;
  page: PageContent;
  /** The variant of each of the page's content experiments for this visitor (flag key -> variant id). */
  flags: Record<string, string>;
  /** The experiments the visitor is in, for the page to report to analytics. */
  viewed: HydrationPayload['viewed'];
}

export interface ServerRenderResult {
  /** The markup of #root. */
  html: string;
  /** What the browser hydrates with (embedded as JSON, not as script: the CSP allows no inline script). */
  hydration: HydrationPayload;
  /** The page's title, for the document head. */
  title: string;
}

/**
 * Renders one page, or null when the routes would not show it as is (a redirect, an error, not found):
 * such requests get the SPA's plain page and the browser decides.
 */
export async function renderPage(input: ServerRenderInput): Promise<ServerRenderResult | null> {
  setPageInit(input.pageInit);
  const url = new URL(input.url);
  // The loaders find exactly this content (rendering is per request; a concurrent render primes its own).
  primeSiteSettings(isErrorContext(url.search), input.settings);
  // Without navigation the root loader asks for it, fails and renders the header without it, as in the SPA.
  if (input.navigation) primeNavigation(input.navigation);
  primePage(url.pathname, input.page);

  const handler = createStaticHandler(appRoutes());
  const context = await handler.query(new Request(url));
  if (context instanceof Response) return null;
  if (context.statusCode !== 200 || context.errors) return null;
  const contentData = Object.values(context.loaderData).some(
    (data) => typeof data === 'object' && data !== null && (data as { kind?: string }).kind === 'page',
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
      title: documentTitle(input.page.meta.title),
    };
  } finally {
    setInitialFeatureValues({});
  }
}
