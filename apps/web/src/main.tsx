import type { PageContent } from '@portal/contracts/content';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { App } from './app/app';
import { releaseSubmits, TakeOverEarlyInput } from './app/early-input';
import { FallbackPage } from './app/errors/fallback-page';
import { readHydrationPayload, readPublicContent, type HydrationPayload } from './app/hydration';
import { FullPageLoader } from './app/loader/full-page-loader';
import { loaderStore } from './app/loader/loader-store';
import type { ContentRouteData } from './app/route-loaders';
import { createAppRouter, routerNavigator, type AppRouter } from './app/router';
import { holdLoadersUntil } from './app/startup';
import { primeMissingPage, primePage } from './content/api/get-content-by-relative-url';
import { primeNavigation } from './content/api/get-navigation';
import { isErrorContext, primeSiteSettings } from './content/api/get-site-settings';
import { loadPageComponent } from './app/page-registry';
import { ROOT_ROUTE_ID, type RootData } from './content/use-site-settings';
import { registerNavigator } from './lib/app-navigation';
import { pushToDataLayer } from './lib/analytics/data-layer';
import { trackPageViews } from './lib/analytics/page-views';
import { getExperimentUserId } from './lib/experiments';
import { initAuth } from './session/init';
import { noteSharedViewPage } from './session/shared-view';
import { getAuthSnapshot } from './session/session-store';
import { loadPageInit } from './lib/page-init';
import './styles/app.css';

function startRouter(router: AppRouter) {
  registerNavigator(routerNavigator(router));
  trackPageViews(router, noteSharedViewPage);
}

/** What a server-rendered page shows: its content page, or the not-found page (answered 404). */
type RenderedRoute = { kind: 'page'; page: PageContent } | { kind: 'notFound' };

/** The content route's loader data of a server-rendered page. */
function renderedRoute(payload: HydrationPayload): RenderedRoute | undefined {
  for (const data of Object.values(payload.loaderData)) {
    const route = data as Partial<ContentRouteData> | null;
    if (route?.kind === 'page' && route.page) return { kind: 'page', page: route.page };
    if (route?.kind === 'notFound') return { kind: 'notFound' };
  }
  return undefined;
}

/**
 * What a server-rendered page (decision 016) shows, if this visitor may take it over where it stands:
 * one the server rendered for a visitor like them, signed out and in no sign-in journey (the server cannot
 * see the tab's session storage). Anyone else gets the SPA's own first render.
 */
function hydratableRoute(payload: HydrationPayload | null): RenderedRoute | undefined {
  const route = payload ? renderedRoute(payload) : undefined;
  const { isAuthenticated, data } = getAuthSnapshot();
  return route && !isAuthenticated && !data ? route : undefined;
}

/**
 * Content the page arrived with, put in the content cache as if the SPA had fetched it. An address the
 * server answered 404 is known to have no page: the loader shows the not-found page without asking.
 */
function primeContent(content: Partial<RootData> & { page?: PageContent; missing?: boolean }) {
  // The error context (`?error=true`) has settings of its own; the server's public-content block is only
  // ever sent for an address without a query string.
  if (content.settings) primeSiteSettings(isErrorContext(window.location.search), content.settings);
  if (content.navigation) primeNavigation(content.navigation);
  if (content.page) primePage(window.location.pathname, content.page);
  else if (content.missing) primeMissingPage(window.location.pathname);
}

/** The content a server-rendered page was rendered with (its root route's loader data and the page). */
function renderedContent(payload: HydrationPayload, route: RenderedRoute) {
  return {
    ...(payload.loaderData[ROOT_ROUTE_ID] as Partial<RootData> | undefined),
    ...(route.kind === 'page' ? { page: route.page } : { missing: true }),
  };
}

/**
 * The router starts with the server's loader data and React attaches to the markup, so nothing is
 * fetched or painted again.
 */
async function hydrate(container: HTMLElement, payload: HydrationPayload, route: RenderedRoute) {
  const page = route.kind === 'page' ? route.page : undefined;
  if (page) {
    const { setInitialFeatureValues } = await import('./lib/feature-flags/feature-flags');
    setInitialFeatureValues(payload.flags);
    // The page's code was preloaded with the HTML; it must be in hand before React attaches.
    await loadPageComponent(page.type);
  }
  // The content it was rendered with serves the next pages too, as if the SPA had fetched it.
  primeContent(renderedContent(payload, route));
  const router = createAppRouter({ loaderData: payload.loaderData });
  startRouter(router);
  // As a transition, React hydrates in slices and leaves the phone free to respond in between, rather
  // than in one long task (the page is already on screen: nothing waits for the hydration to paint).
  let reactRoot: Root | undefined;
  startTransition(() => {
    reactRoot = hydrateRoot(
      container,
      <StrictMode>
        <TakeOverEarlyInput container={container}>
          <App router={router} />
        </TakeOverEarlyInput>
      </StrictMode>,
    );
  });
  if (page && page.experiments.length > 0) {
    // The variant the server chose is the one the flag SDK would: the page needs no SDK of its own. It
    // reports the variant seen as the SDK's tracking would, and keeps the id in local storage (spec).
    getExperimentUserId();
    for (const { experimentId, variationId } of payload.viewed) {
      pushToDataLayer({ event: 'experimentViewed', experimentId, variationId });
    }
  }
  return reactRoot;
}

/**
 * Page init (base URLs, identity settings), then the session layer: a stored sign-in is loaded (and
 * renewed) or cleared before the first guard runs. False when page init failed: without base URLs no
 * call can be made.
 */
async function startServices(): Promise<boolean> {
  try {
    await loadPageInit();
  } catch (error) {
    console.error(error instanceof Error ? error.message : 'Page settings failed to load');
    return false;
  }
  await initAuth();
  return true;
}

async function start() {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const payload = readHydrationPayload();
  const hydratable = hydratableRoute(payload);
  if (payload && hydratable) {
    // The page is on screen already: it is taken over first, and the start runs beside it (the next
    // page's loaders wait for it), so nothing of the start stands between the customer and a working
    // page. The feature flags load with the first page that runs an experiment (route-loaders.ts).
    const services = startServices();
    holdLoadersUntil(services);
    const reactRoot = await hydrate(container, payload, hydratable);
    // Without base URLs the page cannot do anything: the same fallback as failed site settings.
    if (!(await services)) {
      releaseSubmits();
      reactRoot?.render(<FallbackPage />);
    }
    return;
  }
  // The SPA renders this page itself: its forms send themselves (a server-rendered page's guard, if the
  // page has one, holds nothing).
  releaseSubmits();
  if (!(await startServices())) {
    createRoot(container).render(<FallbackPage />);
    return;
  }

  // The public content came with the page (decision 017): the first page's loaders find it in hand. A
  // page rendered for a signed-out visitor has it in its hydration data.
  const rendered = payload ? renderedRoute(payload) : undefined;
  const content = payload && rendered ? renderedContent(payload, rendered) : readPublicContent();
  if (content) primeContent(content);

  const root = createRoot(container);
  // Start-up waits on the network (settings, flags): show the loader at once, not a blank page.
  loaderStore.add();
  root.render(<FullPageLoader />);
  const router = createAppRouter();
  startRouter(router);
  root.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
  // The router's own loader (first page data) has taken over by now; this one closes.
  loaderStore.remove();
}

void start();
