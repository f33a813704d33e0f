import { createBrowserRouter, type RouteObject } from 'react-router';
import { FindCustomerPage } from '../features/find-customer/find-customer-page';
import { ConsoleLayout } from './console-layout';
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
      { index: true, element: <FindCustomerPage /> },
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createConsoleRouter() {
  return createBrowserRouter(consoleRoutes, { basename: CONSOLE_BASENAME });
}
