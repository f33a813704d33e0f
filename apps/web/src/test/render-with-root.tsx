import type { Navigation, SiteSettings } from '@portal/contracts/content';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { ROOT_ROUTE_ID, type RootData } from '../content/use-site-settings';
import { makeSettings, testNavigation } from './content-fixtures';

/** Renders a component under a root route carrying site settings, as every page is in the app. */
export function renderWithRoot(
  ui: ReactNode,
  {
    settings = makeSettings(),
    navigation = testNavigation,
    path = '/',
  }: { settings?: SiteSettings; navigation?: Navigation; path?: string } = {},
) {
  const data: RootData = { settings, navigation };
  const router = createMemoryRouter(
    [
      {
        id: ROOT_ROUTE_ID,
        path: '/',
        loader: () => data,
        element: <Outlet />,
        children: [
          { index: true, element: ui },
          { path: '*', element: ui },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}
