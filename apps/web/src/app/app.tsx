import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { getSession, subscribeSession } from '../session/session';
import type { AppRouter } from './router';

/** Customer data must not outlive the session that fetched it; content is the same for everyone. */
export function clearCustomerDataOnSignOut(queryClient: QueryClient): () => void {
  return subscribeSession(() => {
    if (getSession().isAuthenticated) return;
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'content' });
  });
}

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
