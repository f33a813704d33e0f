import { pushToDataLayer } from './data-layer';

/** The data layer event of a virtual page view (a route change in the single-page app). */
export const VIRTUAL_PAGE_VIEW_EVENT = 'virtualPageView';

/**
 * Query parameters that may appear in analytics: they say which variant of a page was seen and carry
 * nothing personal. Everything else is dropped: `token` (activation and reset links), `code`/`state`
 * (sign-in callback), `redirect_url`, `RelayState`, and `id` (a policy number identifies a customer).
 */
const allowedQueryParams = new Set(['warning', 'primary', 'error']);

const emailLike = /[^/@\s]+@[^/@\s]+/;
/** Long runs of letters, digits, - and _ look like tokens or ids; no content path segment is like that. */
const tokenLike = /^[A-Za-z0-9_-]{24,}$/;
const digitsLike = /\d{6,}/;

/**
 * The address as analytics may see it: the path with any segment that could be personal or secret
 * replaced, and only the allowed query parameters. `/register/activate?token=abc` -> `/register/activate`.
 */
export function analyticsPath(pathname: string, search = ''): string {
  const path = pathname
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Keep the raw segment; the checks below still apply.
      }
      return emailLike.test(decoded) || tokenLike.test(decoded) || digitsLike.test(decoded)
        ? 'redacted'
        : segment;
    })
    .join('/');
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(search)) {
    if (allowedQueryParams.has(name) && /^[\w-]{0,40}$/.test(value)) kept.append(name, value);
  }
  const query = kept.toString();
  return `${path || '/'}${query ? `?${query}` : ''}`;
}

export interface VirtualPageView {
  /** Site path (cleaned with analyticsPath unless it is one of the spec's fixed /dcs/ views). */
  path: string;
  /** The page's title from content (meta.title): the same for every customer. */
  title?: string;
  /** The page type content names (LoginPage, DashboardPage, ...). */
  pageType?: string;
}

export function trackVirtualPageView({ path, title, pageType }: VirtualPageView): void {
  pushToDataLayer({
    event: VIRTUAL_PAGE_VIEW_EVENT,
    virtualPagePath: path,
    virtualPageTitle: title,
    pageType,
  });
}

/** The parts of a data router's state this needs (react-router's `router.state`). */
interface RouterStateLike {
  /** False while the first page's loaders still run. */
  initialized?: boolean;
  location: { pathname: string; search: string; key: string };
  navigation: { state: string };
  matches: ReadonlyArray<{ route: { id: string } }>;
  loaderData: Record<string, unknown>;
}

export interface RouterLike {
  state: RouterStateLike;
  subscribe(listener: (state: RouterStateLike) => void): () => void;
}

/** The content page the deepest route loaded, if any ({kind:'page', page} or {page} from the error route). */
function pageOf(state: RouterStateLike): { title?: string; pageType?: string } {
  for (let i = state.matches.length - 1; i >= 0; i -= 1) {
    const data = state.loaderData[state.matches[i]!.route.id] as { page?: unknown } | null | undefined;
    const page =
      data && typeof data === 'object'
        ? (data.page as { type?: unknown; meta?: { title?: unknown } } | null)
        : null;
    if (page && typeof page === 'object') {
      return {
        ...(typeof page.meta?.title === 'string' ? { title: page.meta.title } : {}),
        ...(typeof page.type === 'string' ? { pageType: page.type } : {}),
      };
    }
  }
  return {};
}

/**
 * Pushes a virtual page view for the first page and for every route change, once the new page has
 * loaded (redirects by a guard count once, at their destination), and tells `alsoTell` of each (the
 * contact centre's read-only view records the pages it shows). Returns the unsubscribe function.
 */
export function trackPageViews(router: RouterLike, alsoTell?: (view: VirtualPageView) => void): () => void {
  let lastKey: string | null = null;
  const onState = (state: RouterStateLike) => {
    if (state.initialized === false || state.navigation.state !== 'idle') return;
    if (state.location.key === lastKey) return;
    lastKey = state.location.key;
    const view = { path: analyticsPath(state.location.pathname, state.location.search), ...pageOf(state) };
    trackVirtualPageView(view);
    alsoTell?.(view);
  };
  const unsubscribe = router.subscribe(onState);
  // The first page: the router may still be loading it, in which case the subscription reports it.
  onState(router.state);
  return unsubscribe;
}
