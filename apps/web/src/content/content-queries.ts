import { queryOptions } from '@tanstack/react-query';
import {
  getContentByRelativeUrlCall,
  getNavigationCall,
  getSiteSettingsCall,
  normaliseContentPath,
  type SiteSettings,
} from '@portal/contracts/content';
import { callApi } from '../lib/api-client';

/** Content calls are always handled by their caller (the route loaders decide where a failure goes). */
const handledByCaller = () => undefined;

const FIVE_MINUTES = 5 * 60_000;

class MissingSiteSettingsError extends Error {
  override name = 'MissingSiteSettingsError';
}

/**
 * Site settings: the first item of the settings array. `errorContext` adds `error=true` (spec: when the
 * page URL has error=true).
 */
export const siteSettingsQuery = (errorContext = false) =>
  queryOptions({
    queryKey: ['content', 'siteSettings', errorContext],
    queryFn: async ({ signal }): Promise<SiteSettings> => {
      const list = await callApi(getSiteSettingsCall, {
        query: errorContext ? { type: 'SiteSettings', error: 'true' } : { type: 'SiteSettings' },
        signal,
        handleError: handledByCaller,
      });
      const first = list[0];
      if (!first) throw new MissingSiteSettingsError('The content service returned no site settings');
      return first;
    },
    staleTime: FIVE_MINUTES,
  });

export const navigationQuery = () =>
  queryOptions({
    queryKey: ['content', 'navigation'],
    queryFn: ({ signal }) => callApi(getNavigationCall, { signal, handleError: handledByCaller }),
    staleTime: FIVE_MINUTES,
  });

/** The content of the page at a path (query and fragment ignored, as the content service does). */
export const pageQuery = (pathname: string) => {
  const relativeUrl = normaliseContentPath(pathname);
  return queryOptions({
    queryKey: ['content', 'page', relativeUrl],
    queryFn: ({ signal }) =>
      callApi(getContentByRelativeUrlCall, { query: { relativeUrl }, signal, handleError: handledByCaller }),
    staleTime: FIVE_MINUTES,
  });
};

/** Whether a page URL asks for the error-context settings (`?error=true`). */
export function isErrorContext(search: string): boolean {
  return new URLSearchParams(search).get('error') === 'true';
}
