import { useEffect } from 'react';

export const SITE_NAME = 'Meridian Mutual';

/**
 * "{title} | Meridian Mutual": the page's own title first, so tabs and screen readers lead with it.
 * A title that already names the site is used as it is.
 */
export function documentTitle(title: string | undefined, siteName = SITE_NAME): string {
  const trimmed = title?.trim();
  if (!trimmed) return siteName;
  return trimmed.toLowerCase().includes(siteName.toLowerCase()) ? trimmed : `${trimmed} | ${siteName}`;
}

export function useDocumentTitle(title: string | undefined, siteName = SITE_NAME): void {
  useEffect(() => {
    document.title = documentTitle(title, siteName);
  }, [title, siteName]);
}
