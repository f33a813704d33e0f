import type { PageContent } from '@portal/contracts/content';
import { normaliseContentPath } from '@portal/contracts/content/paths';
import { callApi } from '../../lib/api-client';
import { cachedContent, primeContent } from './content-cache';

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
