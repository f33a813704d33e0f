import { useEffect } from 'react';

export const SITE_NAME = 'Meridian Mutual';

/** The site's name at the end of a title, after any separator: content's older "Page - Site" titles. */
function withoutSiteName(title: string, siteName: string): string {
  const escaped = siteName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return title.replace(new RegExp(`\\s*[-–—|:]\\s*${escaped}$`, 'i'), '').trim();
}

/**
 * Every page's title follows one pattern, "{page} – Meridian Mutual": the page's own title first, so tabs
 * and screen readers lead with it. Content gives the page's part only; a title that already ends with
 * the site's name still comes out in the one pattern.
 */
export function documentTitle(title: string | undefined, siteName = SITE_NAME): string {
  const page = withoutSiteName(title?.trim() ?? '', siteName);
  return page && page.toLowerCase() !== siteName.toLowerCase() ? `${page} – ${siteName}` : siteName;
}

export function useDocumentTitle(title: string | undefined, siteName = SITE_NAME): void {
  useEffect(() => {
    document.title = documentTitle(title, siteName);
  }, [title, siteName]);
}
