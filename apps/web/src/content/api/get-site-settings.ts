import type { SiteSettings } from '@portal/contracts/content';
import { callApi } from '../../lib/api-client';
import { cachedContent, primeContent } from './content-cache';

/*
 * A failed content call rejects (the API client's default); the route loaders decide where the failure
 * goes (spec access-and-session §8: no site settings -> the full-page "Something went wrong").
 */

class MissingSiteSettingsError extends Error {
  override name = 'MissingSiteSettingsError';
}

/**
 * Site settings: the first item of the settings array. `errorContext` adds `error=true` (spec: when the
 * page URL has error=true).
 */
export const loadSiteSettings = (errorContext = false): Promise<SiteSettings> =>
  cachedContent(`siteSettings:${errorContext}`, async () => {
    const { getSiteSettingsCall } = await import('./content-calls');
    const list = await callApi(getSiteSettingsCall, {
      query: errorContext ? { type: 'SiteSettings', error: 'true' } : { type: 'SiteSettings' },
    });
    const first = list[0];
    if (!first) throw new MissingSiteSettingsError('The content service returned no site settings');
    return first;
  });

export const primeSiteSettings = (errorContext: boolean, settings: SiteSettings) =>
  primeContent(`siteSettings:${errorContext}`, settings);

/** Whether a page URL asks for the error-context settings (`?error=true`). */
export function isErrorContext(search: string): boolean {
  return new URLSearchParams(search).get('error') === 'true';
}
