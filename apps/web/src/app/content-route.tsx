import { useLoaderData } from 'react-router';
import { PageView } from './page-view';
import { BuiltInErrorPage, BuiltInMaintenancePage } from './errors/built-in-pages';
import { NotFoundPage } from './errors/not-found-page';
import type { ContentRouteData, ErrorRouteData } from './route-loaders';

/** Any content path: the page type content names, rendered through the page registry. */
export function ContentRoute() {
  const data = useLoaderData() as ContentRouteData;
  switch (data.kind) {
    case 'page':
      return <PageView page={data.page} />;
    case 'notFound':
      return <NotFoundPage />;
    case 'maintenance':
      return data.page ? <PageView page={data.page} /> : <BuiltInMaintenancePage />;
    case 'settingsUnavailable':
      // The root route shows the full-page fallback instead of the layout; nothing to add here.
      return null;
  }
}

export function ErrorRoute() {
  const { page } = useLoaderData() as ErrorRouteData;
  return page ? <PageView page={page} /> : <BuiltInErrorPage />;
}
