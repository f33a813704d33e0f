import type { PageContent } from '@portal/contracts/content';
import { normaliseContentPath } from '@portal/contracts/content/paths';
import { ApiError, callApi } from '../../lib/api-client';
import { cachedContent, primeContent, primeContentFailure } from './content-cache';

/**
 * The content of the page at a path (query and fragment ignored, as the content service does). A failure
 * rejects (the client remembers the path for after sign-in); the route loader sends it to the error page.
 */
export const loadPage = (pathname: string): Promise<PageContent> => {
  const relativeUrl = normaliseContentPath(pathname);
  return cachedContent(`page:${relativeUrl}`, async () => {
    const { getContentByRelativeUrlCall } = await import('./content-calls');
    return callApi(getContentByRelativeUrlCall, { query: { relativeUrl } });
  });
};

export const primePage = (pathname: string, page: PageContent) =>
  primeContent(`page:${normaliseContentPath(pathname)}`, page);

/**
 * The server has answered this address 404 (no content page, no route of the app): the route loader shows
 * the not-found page at once, with no content call and nothing remembered for after sign-in.
 */
export const primeMissingPage = (pathname: string) =>
  primeContentFailure(
    `page:${normaliseContentPath(pathname)}`,
    new ApiError('content.getByRelativeUrl', 404, 'Not Found', null, 'server-render'),
  );
