import type { PageContent, SiteSettings } from '@portal/contracts/content';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { loadPage } from '../content/api/get-content-by-relative-url';
import { loadNavigation } from '../content/api/get-navigation';
import { isErrorContext, loadSiteSettings } from '../content/api/get-site-settings';
import type { RootData } from '../content/use-site-settings';
import { ApiError, isAbortError } from '../lib/api-client';
import { sessionGuard } from '../session/route-hook';
import { getSession } from '../session/session';
import { getCurrentUser } from '../session/tokens';
import { sessionKeys, writeSession } from '../session/storage-keys';
import { contentFailureDestination, guardRedirect, keepsAddressForAfterLogin } from '../session/guards';
import { blockLoaders } from './block-registry';
import { loadPageComponent } from './page-registry';
import { whenStarted } from './startup';

export type ContentRouteData =
  | { kind: 'page'; page: PageContent }
  | { kind: 'notFound' }
  | { kind: 'maintenance'; page: PageContent | null }
  | { kind: 'settingsUnavailable' };

export interface ErrorRouteData {
  page: PageContent | null;
}

function rethrowAbort(error: unknown): void {
  if (isAbortError(error)) throw error;
}

async function loadSettings(url: URL): Promise<SiteSettings | null> {
  try {
    return await loadSiteSettings(isErrorContext(url.search));
  } catch (error) {
    rethrowAbort(error);
    return null;
  }
}

/** Settings and navigation for every page. A settings failure becomes the full-page fallback. */
export function rootLoader() {
  return async ({ request }: LoaderFunctionArgs): Promise<RootData> => {
    await whenStarted();
    const url = new URL(request.url);
    const [settings, navigation] = await Promise.all([
      loadSettings(url),
      loadNavigation().catch((error: unknown) => {
        rethrowAbort(error);
        // Without navigation the header still offers the logo, sign-out and the skip links.
        return null;
      }),
    ]);
    return { settings, navigation };
  };
}

/** Starts the feature flags and waits for them (bounded); the flags code itself loads on demand. */
async function flagsReady(): Promise<void> {
  // On the server the visitor's variants are decided before rendering (decision 016, entry-server.tsx).
  if (import.meta.env.SSR) return;
  try {
    await (await import('../lib/feature-flags/feature-flags')).initFeatureFlags();
  } catch {
    // Without the flags code the experiments show their control variant.
  }
}

/**
 * Starts downloading the code of the page's lazily loaded blocks (the customer-data blocks) without
 * waiting for it: it arrives beside the page's data instead of after it. The block renderer is imported
 * here on demand (it comes with the pages that render blocks), so the start-up bundle does not carry it.
 */
function preloadPageBlocks(page: PageContent): void {
  const blocks = [
    ...page.blocks,
    ...page.experiments.flatMap((experiment) => experiment.variants.flatMap((variant) => variant.blocks)),
  ];
  if (blocks.length === 0) return;
  import('../content/content-blocks').then(
    (renderer) => renderer.preloadBlocks(blockLoaders, blocks),
    () => undefined,
  );
}

/**
 * Loads what a page needs before it shows: its component and, for a page with content experiments, the
 * feature flags (bounded by their start-up wait, so the variant shows from the first render). The flags
 * code and SDK are therefore downloaded only by visitors who reach a page that runs an experiment.
 */
async function preparePage(page: PageContent): Promise<void> {
  await Promise.all([loadPageComponent(page.type), page.experiments.length > 0 ? flagsReady() : undefined]);
}

async function maintenance(settings: SiteSettings): Promise<ContentRouteData> {
  try {
    const page = await loadPage(settings.maintenancePage);
    await preparePage(page);
    return { kind: 'maintenance', page };
  } catch (error) {
    rethrowAbort(error);
    return { kind: 'maintenance', page: null };
  }
}

/**
 * Every content route: the page at the URL's path, after maintenance mode and the sign-in guards.
 * The page's component is loaded here too, so the new page appears complete in one step.
 */
export function contentLoader() {
  return async ({ request }: LoaderFunctionArgs): Promise<ContentRouteData> => {
    await whenStarted();
    const url = new URL(request.url);
    // The page is asked for beside the settings, not after them: one round trip fewer before a page
    // shows on a slow connection. Its answer waits until the settings say it is wanted.
    const pageRequest = loadPage(url.pathname);
    pageRequest.catch(() => undefined);
    const settings = await loadSettings(url);
    if (!settings) return { kind: 'settingsUnavailable' };
    if (settings.isMaintenanceMode) return maintenance(settings);

    let page: PageContent;
    try {
      page = await pageRequest;
    } catch (error) {
      rethrowAbort(error);
      // 400 is an address the content service cannot look up at all: to a visitor, also "not found".
      if (error instanceof ApiError && (error.status === 404 || error.status === 400))
        return { kind: 'notFound' };
      throw redirect(contentFailureDestination(url.pathname));
    }
    if (page.isMaintenanceMode) return maintenance(settings);

    const isAuthenticated = getSession().isAuthenticated;
    const guard = guardRedirect({ page, isAuthenticated, settings });
    if (guard) {
      if (!isAuthenticated && keepsAddressForAfterLogin(url.pathname)) {
        writeSession(sessionKeys.redirectAfterLogin, url.pathname + url.search);
      }
      throw redirect(guard);
    }
    const sessionRedirect = await sessionGuard({ page, pathname: url.pathname, settings });
    if (sessionRedirect) throw redirect(sessionRedirect);
    // Signed in: the customer's data (spec customer-data §7) is read beside the page's code, not after
    // the page has rendered; the read is skipped while the stored data is fresh.
    const user = isAuthenticated ? getCurrentUser() : null;
    if (user) {
      // The query library comes with the signed-in pages, never with a public one.
      import('../session/user-data/user-data').then(
        (userData) => userData.prefetchUserData(user.customerId, settings.userCacheTTL),
        () => undefined,
      );
      // The customer-data blocks are on signed-in pages only: public pages never load the renderer here.
      preloadPageBlocks(page);
    }
    if (page.type === 'RedirectPage' && page.opensIn !== 'NewTab' && /^\/(?!\/)/.test(page.target)) {
      throw redirect(page.target);
    }
    await preparePage(page);
    return { kind: 'page', page };
  };
}

/** /error: the error page from content, or the built-in one when that cannot load either. */
export function errorLoader() {
  return async ({ request }: LoaderFunctionArgs): Promise<ErrorRouteData> => {
    await whenStarted();
    const url = new URL(request.url);
    const settings = await loadSettings(url);
    try {
      const page = await loadPage(settings?.errorPage ?? '/error');
      await preparePage(page);
      return { page };
    } catch (error) {
      rethrowAbort(error);
      return { page: null };
    }
  };
}
