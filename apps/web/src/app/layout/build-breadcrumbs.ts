export interface Breadcrumb {
  label: string;
  href: string;
  /** The page being shown (rendered as text with aria-current, not as a link). */
  current: boolean;
}

export interface BreadcrumbOptions {
  /** Segments left out of the trail (spec: policies and profile). */
  dropSegments?: readonly string[];
  /** Segment -> label replacements; keys may be written with hyphens or spaces. */
  labels?: Readonly<Record<string, string>>;
  /** Profile pages are shown under this page (spec: under the dashboard). */
  dashboardPath?: string;
  /** Label of the current page's crumb when content names one (page.breadcrumbTitle). */
  currentLabel?: string;
}

const defaultBreadcrumbOptions: Required<Omit<BreadcrumbOptions, 'currentLabel'>> = {
  dropSegments: ['policies', 'profile'],
  labels: { 'login-security': 'Update your password' },
  dashboardPath: '/account/dashboard',
};

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function labelFor(segment: string, labels: Readonly<Record<string, string>>): string {
  const key = decode(segment).toLowerCase();
  const spaced = key.replace(/-/g, ' ');
  const replacement = labels[key] ?? labels[spaced];
  if (replacement) return replacement;
  const text = decode(segment).replace(/-/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function segmentsOf(path: string): string[] {
  return path.split(/[?#]/, 1)[0]!.split('/').filter(Boolean);
}

/**
 * The breadcrumb trail of a path (spec customer-data §9): the segments `policies` and `profile` are
 * dropped, hyphens become spaces, `login security` reads "Update your password", and profile pages sit
 * under the dashboard (its crumb alone, not the path above it). A trail appears only when it has more than
 * one crumb once the dropped segments are gone. Each crumb links to the path up to its segment; the crumb
 * of the page itself is marked current.
 */
export function buildBreadcrumbs(pathname: string, options: BreadcrumbOptions = {}): Breadcrumb[] {
  const { dropSegments, labels, dashboardPath, currentLabel } = { ...defaultBreadcrumbOptions, ...options };
  const segments = segmentsOf(pathname);
  if (segments.length <= 1) return [];
  const dropped = new Set(dropSegments.map((s) => s.toLowerCase()));
  const currentHref = '/' + segments.join('/');

  const trail: { segment: string; href: string }[] = [];
  if (segments[0]!.toLowerCase() === 'profile') {
    const dashboard = segmentsOf(dashboardPath).at(-1);
    if (dashboard) trail.push({ segment: dashboard, href: dashboardPath });
  }
  segments.forEach((segment, i) => trail.push({ segment, href: '/' + segments.slice(0, i + 1).join('/') }));

  const crumbs = trail
    .filter(({ segment }) => !dropped.has(decode(segment).toLowerCase()))
    .map(({ segment, href }) => {
      const current = href === currentHref;
      return { label: current && currentLabel ? currentLabel : labelFor(segment, labels), href, current };
    });
  return crumbs.length > 1 ? crumbs : [];
}
