import signedInCode from 'virtual:signed-in-code';

/**
 * While the customer waits for their code and types it, the code page fetches ahead the code of the page
 * they land on once signed in (decision 033): the signed-in shell, the dashboard and its blocks, and the
 * sign-in callback page on the way there, as the build lists them (`virtual:signed-in-code`). Continue
 * sends the browser to the identity provider and back to /login/callback, a new page: only the HTTP cache
 * carries anything across, so these are prefetches (`<link rel="prefetch">`: fetched at the browser's
 * lowest priority, kept in the cache, not run), not module preloads, which would be fetched at high
 * priority beside the page's own calls and compiled here for a page that is about to go.
 */

/** An idle moment is waited for this long at most: on a busy phone it starts soon after anyway. */
const IDLE_TIMEOUT_MS = 2_000;
/** Where the browser has no idle callback (Safari): this long after the page settled. */
const IDLE_FALLBACK_MS = 500;

/** The Network Information API's connection (Chromium browsers; not Safari or Firefox). */
interface Connection {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * Whether to fetch ahead on this connection: not when the customer's browser asks to save data
 * (Save-Data), nor on a connection it rates 2G or slower (`2g`, `slow-2g`: round trips of 1.4 s or more,
 * tens of kilobits a second), where some 50 KB of code would hold the link for many seconds, through the
 * Continue and the provider's redirect, for a page the customer may not reach at once. 3G and better,
 * and a browser that does not say (Safari, Firefox): yes.
 */
export function mayFetchAhead(connection: Connection | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  return connection.effectiveType !== '2g' && connection.effectiveType !== 'slow-2g';
}

const connection = () => (navigator as Navigator & { connection?: Connection }).connection;

/** Files asked for already by this page (a new code, the page shown again). */
const asked = new Set<string>();

/** The page's scripts and links, and everything it has fetched: none of it is fetched again. */
function alreadyHere(): Set<string> {
  const here = new Set(performance.getEntriesByType('resource').map((entry) => entry.name));
  for (const element of document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>(
    'link[href], script[src]',
  )) {
    here.add(element instanceof HTMLLinkElement ? element.href : element.src);
  }
  return here;
}

function supportsPrefetch(link: HTMLLinkElement): boolean {
  try {
    return link.relList.supports('prefetch');
  } catch {
    return false;
  }
}

function fetchAhead(href: string): void {
  const link = document.createElement('link');
  if (supportsPrefetch(link)) {
    link.rel = 'prefetch';
    link.as = 'script';
    // As the module script will ask for it (CORS, same-origin credentials), so the cached answer serves it.
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.append(link);
    return;
  }
  // Safari has no prefetch: a low-priority fetch fills the same cache (while the page is open).
  void fetch(href, { priority: 'low' })
    .then((response) => response.blob())
    .catch(() => undefined);
}

/** Asks for each file not here yet nor asked for already. */
function fetchAll(files: readonly string[]): void {
  if (!mayFetchAhead(connection())) return;
  const here = alreadyHere();
  for (const file of files) {
    const href = new URL(`${import.meta.env.BASE_URL}${file}`, window.location.href).href;
    if (asked.has(href) || here.has(href)) continue;
    asked.add(href);
    fetchAhead(href);
  }
}

function pageLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/** Runs `work` at the page's next idle moment; returns a function that cancels it. */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, IDLE_FALLBACK_MS);
  return () => clearTimeout(id);
}

interface PrefetchOptions {
  /** What the page fetches first for itself (the token client): the prefetch waits until it is in. */
  after?: Promise<unknown>;
  /** The files (the build's list unless given). */
  files?: readonly string[];
}

/**
 * Fetches ahead the signed-in page's code: after `after` has settled and the page has loaded, at its next
 * idle moment, each file not already here, once. Returns a function that stops it if it has not started
 * (the page calls it when Continue is pressed or it goes): what has been asked for is the browser's.
 */
export function prefetchSignedInCode({
  after = Promise.resolve(),
  files = signedInCode,
}: PrefetchOptions = {}): () => void {
  let stopped = false;
  let cancelIdle = () => {};
  void after
    .catch(() => undefined)
    .then(pageLoaded)
    .then(() => {
      if (stopped || files.length === 0) return;
      cancelIdle = whenIdle(() => {
        if (!stopped) fetchAll(files);
      });
    });
  return () => {
    stopped = true;
    cancelIdle();
  };
}
