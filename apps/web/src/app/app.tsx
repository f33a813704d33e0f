import { RouterProvider } from 'react-router';
import type { AppRouter } from './router';

/*
 * No query provider at the root: content is cached by the route loaders and customer data by the query
 * client its hooks use (session/query-client.ts, decision 016), so a public page carries no query library.
 */
export function App({ router }: { router: AppRouter }) {
  return <RouterProvider router={router} />;
}
