import { queryOptions } from '@tanstack/react-query';
import { getContentByRelativeUrlCall, normaliseContentPath } from '@portal/contracts/content';
import { callApi } from '../../lib/api-client';
import { CONTENT_STALE_TIME } from './content-cache';

/**
 * The content of the page at a path (query and fragment ignored, as the content service does). A failure
 * rejects (the client remembers the path for after sign-in); the route loader sends it to the error page.
 */
export const pageQuery = (pathname: string) => {
  const relativeUrl = normaliseContentPath(pathname);
  return queryOptions({
    queryKey: ['content', 'page', relativeUrl],
    queryFn: ({ signal }) => callApi(getContentByRelativeUrlCall, { query: { relativeUrl }, signal }),
    staleTime: CONTENT_STALE_TIME,
  });
};
