import { createBrowserRouter, redirect, type HydrationState, type RouteObject } from 'react-router';
import { ROOT_ROUTE_ID } from '../content/use-site-settings';
import type { AppNavigator } from '../lib/app-navigation';
import { ContentRoute, ErrorRoute } from './content-route';
import { UnexpectedError } from './errors/unexpected-error';
import { InitialLoad } from './loader/initial-load';
import { RootRoute } from './root-route';
import { contentLoader, errorLoader, rootLoader } from './route-loaders';
import { RouteError } from './errors/route-error';

/**
 * The routes of spec section 2. Everything but `/` and `/error` is a content route: the content service
 * is asked for the page at that path and the page registry renders the type it names. The named
 * sections are listed so the table reads like the spec; they share the one content route. The routes
 * that are no content page (`/`, the sign-in callback) are listed for the server too
 * (SPA_ROUTES_OUTSIDE_CONTENT in contracts/server-render.ts), which answers any other address 404.
 */
export function appRoutes(): RouteObject[] {
  const content = (id: string, path: string): RouteObject => ({
    id,
    path,
    loader: contentLoader(),
    element: <ContentRoute />,
    errorElement: <RouteError />,
  });
  return [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      loader: rootLoader(),
      element: <RootRoute />,
      errorElement: <UnexpectedError />,
      HydrateFallback: InitialLoad,
      children: [
        { index: true, loader: () => redirect('/login') },
        {
          id: 'error',
          path: 'error',
          loader: errorLoader(),
          element: <ErrorRoute />,
          errorElement: <RouteError />,
        },
        {
          id: 'login-callback',
          path: 'login/callback',
          lazy: async () => ({ Component: (await import('../features/auth/login-callback-page')).default }),
          errorElement: <RouteError />,
        },
        {
          // The contact centre's read-only view of a customer's account opens here (issue 41 point 6).
          id: 'shared-view',
          path: 'account/shared-view',
          lazy: async () => ({ Component: (await import('../features/auth/shared-view-page')).default }),
          errorElement: <RouteError />,
        },
        content('login', 'login/*'),
        content('account', 'account/*'),
        content('contact-us', 'contact-us/*'),
        content('profile', 'profile/*'),
        content('content', '*'),
      ],
    },
  ];
}

/** The browser's router; `hydrationData` is the loader data of a page the server rendered (decision 016). */
export function createAppRouter(hydrationData?: HydrationState) {
  return createBrowserRouter(appRoutes(), hydrationData ? { hydrationData } : undefined);
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/** Lets code outside components (the API client, sign-out) use this router. */
export function routerNavigator(router: Pick<AppRouter, 'navigate' | 'state'>): AppNavigator {
  return {
    navigate: (to, options) => void router.navigate(to, options),
    currentPath: () => {
      const location = router.state.navigation.location ?? router.state.location;
      return location.pathname + location.search;
    },
  };
}
