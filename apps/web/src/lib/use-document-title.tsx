import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  type ReactNode,
} from 'react';

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

interface TitleClaims {
  /** A part of the page names what it shows instead; answers the function that gives the title back. */
  claim(title: string | undefined): () => void;
}

const TitleClaimsContext = createContext<TitleClaims | null>(null);

/**
 * The tab's title for a content page: the page's own (`meta.title`) unless a part of it showing something
 * narrower or different names its own with useDocumentTitle while it shows (the policy page without a
 * policy lists them all: "Your policies"; a page of a type this version does not know). Without this, the
 * page's title, set in its effect after its children's, would always win.
 */
export function PageTitle({ title, children }: { title: string | undefined; children: ReactNode }) {
  const claims = useRef<Array<{ title: string | undefined }>>([]);
  const apply = useCallback(() => {
    const claimed = claims.current.at(-1);
    document.title = documentTitle(claimed ? claimed.title : title);
  }, [title]);
  useEffect(apply, [apply]);
  const value = useMemo<TitleClaims>(
    () => ({
      claim(claimed) {
        const entry = { title: claimed };
        claims.current = [...claims.current, entry];
        apply();
        return () => {
          claims.current = claims.current.filter((e) => e !== entry);
          apply();
        };
      },
    }),
    [apply],
  );
  return <TitleClaimsContext.Provider value={value}>{children}</TitleClaimsContext.Provider>;
}

/** Names the tab: inside a content page (PageTitle), in place of the page's title while this shows. */
export function useDocumentTitle(title: string | undefined, siteName = SITE_NAME): void {
  const claims = useContext(TitleClaimsContext);
  // A layout effect: it runs before the page's own (passive) effect, which then finds the claim.
  useLayoutEffect(() => {
    if (claims) return claims.claim(title);
    document.title = documentTitle(title, siteName);
    return undefined;
  }, [claims, title, siteName]);
}
