import type { Navigation, SiteSettings } from '@portal/contracts/content';
import { useRouteLoaderData } from 'react-router';

/** What the root route loads for every page. `settings` is null when the settings call failed. */
export interface RootData {
  settings: SiteSettings | null;
  navigation: Navigation | null;
}

export const ROOT_ROUTE_ID = 'root';

class SiteSettingsUnavailableError extends Error {
  override name = 'SiteSettingsUnavailableError';
}

/**
 * The site settings of the content service. Pages render only when they loaded (otherwise the shell
 * shows the full-page fallback instead), so inside a page this always has a value.
 */
export function useSiteSettings(): SiteSettings {
  const data = useRouteLoaderData(ROOT_ROUTE_ID) as RootData | undefined;
  if (!data?.settings) throw new SiteSettingsUnavailableError('Site settings are not available');
  return data.settings;
}

/** Site settings when available (shell parts that also render in error states). */
export function useOptionalSiteSettings(): SiteSettings | undefined {
  const data = useRouteLoaderData(ROOT_ROUTE_ID) as RootData | undefined;
  return data?.settings ?? undefined;
}

/** A text of settings.commonTexts, or the fallback when content does not have it. */
export function commonText(settings: SiteSettings | undefined, key: string, fallback: string): string {
  return settings?.commonTexts[key] ?? fallback;
}
