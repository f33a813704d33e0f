import { createBrowserRouter, type RouteObject } from 'react-router';
import { ConsoleLayout } from './console-layout';
import { ConsoleHome } from './console-nav';
import { NotFoundPage, RouteErrorPage, SignedOutPage } from './other-pages';

/** Where the server serves the console (apps/server/src/platform/spa.ts). */
export const CONSOLE_BASENAME = '/staff';

/**
 * The console's pages, under /staff: Find a customer (the first screen, in the entry), a customer's record
 * and an audit trail (each loaded when opened), and the signed-out page, the one page without a session.
 */
export const consoleRoutes: RouteObject[] = [
  { path: '/signed-out', element: <SignedOutPage /> },
  {
    element: <ConsoleLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <ConsoleHome /> },
      {
        path: 'customers/:customerId',
        lazy: () =>
          import('../features/customer-record/customer-record-page').then((m) => ({
            Component: m.CustomerRecordPage,
          })),
      },
      {
        path: 'customers/:customerId/audit-trail',
        lazy: () =>
          import('../features/audit-trail/audit-trail-page').then((m) => ({ Component: m.AuditTrailPage })),
      },
      // The site's content and the operator's switches (issue 42), each loaded when opened.
      {
        path: 'content',
        lazy: () =>
          import('../features/content/content-list-page').then((m) => ({ Component: m.ContentListPage })),
      },
      {
        path: 'content/:itemId',
        lazy: () =>
          import('../features/content/content-item-page').then((m) => ({ Component: m.ContentItemPage })),
      },
      {
        path: 'operations',
        lazy: () =>
          import('../features/operations/operations-page').then((m) => ({ Component: m.OperationsPage })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createConsoleRouter() {
  return createBrowserRouter(consoleRoutes, { basename: CONSOLE_BASENAME });
}
