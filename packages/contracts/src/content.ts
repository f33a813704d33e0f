import { z } from 'zod/mini';
import { defineCall, errorEnvelope } from './call';
import { MAX_RELATIVE_URL_LENGTH, controlChars } from './content/building-blocks';
import { siteSettings } from './content/site-settings';
import { navigation } from './content/navigation';
import { pageContent } from './content/pages';
import { featureDefinitions } from './content/feature-flags';

/*
 * The content service: site settings, navigation and one page per relative URL. Every label, message and
 * page text the SPA shows comes from here; the content lives as JSON files under `content/` and is loaded
 * into the content store by the server's seed, which validates every file with these schemas.
 *
 * Placeholders in texts are `{name}` and are filled by the SPA: `{count}`, `{status}`, `{minLength}`,
 * `{seconds}`, `{number}` (the customer's phone number, masked), `{date}`, `{firstName}`, `{lastName}`,
 * `{policyNumber}`. `{phone}` is the site's freephone number (`infinityPhoneTracking`): the content
 * service writes it in as it serves any text, and `tel:{phone}` as a link to call it.
 */

export * from './content/building-blocks';
export * from './content/form-fields';
export * from './content/calls-to-action';
export * from './content/site-settings';
export * from './content/navigation';
export * from './content/blocks';
export * from './content/pages';
export * from './content/paths';
export * from './content/feature-flags';

// ---------------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------------

/** No control characters (they never appear in a real path and break logs and caches). */
const queryText = (max: number) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Give exactly one value') }).check(
    z.minLength(1, 'Must not be empty'),
    z.maxLength(max, `Must be at most ${max} characters`),
    z.refine((v) => !controlChars.test(v), 'Must not contain control characters'),
  );

/**
 * `type` must be `SiteSettings` (the only settings type the portal reads; anything else is a 400).
 * `error=true` returns the same settings with `isErrorContext: true`.
 */
export const getSiteSettingsQuery = z.object({
  type: z.pipe(queryText(100), z.literal('SiteSettings', { error: 'Only type=SiteSettings is supported' })),
  error: z.optional(z.enum(['true', 'false'], { error: 'Must be true or false' })),
});
export type GetSiteSettingsQuery = z.infer<typeof getSiteSettingsQuery>;

/** `relativeUrl` is the page's path (query and fragment are ignored); at most 2 KB. */
export const getPageQuery = z.object({
  relativeUrl: queryText(MAX_RELATIVE_URL_LENGTH).check(
    z.refine((v) => v.startsWith('/') && !v.startsWith('//'), 'Must be a site path starting with /'),
  ),
});
export type GetPageQuery = z.infer<typeof getPageQuery>;

export const getSiteSettingsCall = defineCall({
  id: 'content.getSiteSettings',
  summary: 'Site settings (array; the SPA uses the first item)',
  service: 'content',
  method: 'GET',
  path: '/api/v1/content/getbytype',
  auth: false,
  query: getSiteSettingsQuery,
  responses: { 200: z.array(siteSettings), 400: errorEnvelope },
});

export const getContentByRelativeUrlCall = defineCall({
  id: 'content.getByRelativeUrl',
  summary: 'The content of the page at a relative URL; the SPA renders the page type it names',
  service: 'content',
  method: 'GET',
  path: '/api/v1/content/getByRelativeUrl',
  auth: false,
  query: getPageQuery,
  responses: { 200: pageContent, 400: errorEnvelope, 404: errorEnvelope },
});

export const getNavigationCall = defineCall({
  id: 'content.getNavigation',
  summary: 'Navigation: header (main and utility links) and footer',
  service: 'content',
  method: 'GET',
  path: '/api/v1/content/getnavigation',
  auth: false,
  responses: { 200: navigation },
});

export const featureDefinitionsParams = z.object({
  clientKey: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const getFeatureDefinitionsCall = defineCall({
  id: 'content.getFeatureDefinitions',
  summary: 'Feature-flag definitions for the flag SDK (GrowthBook-compatible)',
  service: 'content',
  method: 'GET',
  path: '/api/features/:clientKey',
  auth: false,
  params: featureDefinitionsParams,
  responses: { 200: featureDefinitions, 404: errorEnvelope },
});
