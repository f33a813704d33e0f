import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mayFetchAhead, prefetchSignedInCode } from './prefetch-signed-in';

/** Each test its own file names: the module remembers what it asked for, as the page does. */
let run = 0;
const filesOf = (...names: string[]) => names.map((name) => `assets/${name}-t${run}.js`);
const href = (file: string) => new URL(`/${file}`, window.location.href).href;

const prefetchLinks = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map((link) => ({
    href: link.href,
    as: link.as,
    crossOrigin: link.crossOrigin,
  }));

/** The browser's connection as the Network Information API reports it (Chromium). */
function connection(value: { saveData?: boolean; effectiveType?: string } | undefined) {
  Object.defineProperty(navigator, 'connection', { value, configurable: true });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(() => {
  run += 1;
  vi.useFakeTimers();
  connection(undefined);
  // jsdom knows no link types; the browsers the portal supports all but Safari know prefetch.
  vi.spyOn(DOMTokenList.prototype, 'supports').mockImplementation((token) => token === 'prefetch');
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  connection(undefined);
  for (const link of document.head.querySelectorAll('link[rel="prefetch"]')) link.remove();
  for (const script of document.head.querySelectorAll('script[data-test]')) script.remove();
});

describe('prefetchSignedInCode', () => {
  it('asks for each file at low priority once the token client is in and the page is idle, and only once', async () => {
    const files = filesOf('dashboard-page', 'vendor-query', 'login-callback-page');
    const tokenClient = deferred();
    prefetchSignedInCode({ after: tokenClient.promise, files });
    await vi.advanceTimersByTimeAsync(5_000);
    // Nothing beside the token client, which the exchange after Continue needs first.
    expect(prefetchLinks()).toEqual([]);

    tokenClient.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks()).toEqual(
      files.map((file) => ({ href: href(file), as: 'script', crossOrigin: 'anonymous' })),
    );

    // The page asks again (a new code, the page shown again): nothing twice.
    prefetchSignedInCode({ files });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks()).toHaveLength(3);
  });

  it('starts even when the token client failed to arrive', async () => {
    const files = filesOf('dashboard-page');
    prefetchSignedInCode({ after: Promise.reject(new Error('offline')), files });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks().map((l) => l.href)).toEqual([href(files[0]!)]);
  });

  it('leaves out what the page has already', async () => {
    const [loaded, wanted] = filesOf('content', 'dashboard-page');
    const script = document.createElement('script');
    script.dataset['test'] = '';
    script.type = 'module';
    script.src = `/${loaded}`;
    document.head.append(script);
    prefetchSignedInCode({ files: [loaded!, wanted!] });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks().map((l) => l.href)).toEqual([href(wanted!)]);
  });

  it('asks for nothing once stopped (Continue pressed) before the page was idle', async () => {
    const files = filesOf('dashboard-page');
    const stop = prefetchSignedInCode({ files });
    await vi.advanceTimersByTimeAsync(100);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(prefetchLinks()).toEqual([]);
    // The next wait for a code starts it again.
    prefetchSignedInCode({ files });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks()).toHaveLength(1);
  });

  it('asks for nothing when the browser says to save data or the connection is 2G', async () => {
    connection({ saveData: true, effectiveType: '4g' });
    prefetchSignedInCode({ files: filesOf('a') });
    await vi.advanceTimersByTimeAsync(1_000);
    connection({ effectiveType: '2g' });
    prefetchSignedInCode({ files: filesOf('b') });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks()).toEqual([]);
    // Decided when it starts, not when it is asked for: saving data turned off in between counts.
    connection({ effectiveType: '4g', saveData: true });
    prefetchSignedInCode({ files: filesOf('c') });
    connection({ effectiveType: '4g', saveData: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prefetchLinks()).toHaveLength(1);
  });

  it('fills the cache with a low-priority fetch where the browser has no prefetch (Safari)', async () => {
    vi.mocked(DOMTokenList.prototype.supports).mockReturnValue(false);
    const fetched: [string, RequestInit | undefined][] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        fetched.push([url, init]);
        return Promise.resolve(new Response('export {}'));
      }),
    );
    try {
      const files = filesOf('dashboard-page', 'vendor-query');
      prefetchSignedInCode({ files });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(fetched).toEqual(files.map((file) => [href(file), { priority: 'low' }]));
      expect(prefetchLinks()).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('mayFetchAhead', () => {
  it('fetches ahead on 3G and faster and where the browser does not say, never with Save-Data or on 2G', () => {
    expect(mayFetchAhead(undefined)).toBe(true);
    expect(mayFetchAhead({})).toBe(true);
    expect(mayFetchAhead({ effectiveType: '4g', saveData: false })).toBe(true);
    expect(mayFetchAhead({ effectiveType: '3g' })).toBe(true);
    expect(mayFetchAhead({ effectiveType: '4g', saveData: true })).toBe(false);
    expect(mayFetchAhead({ effectiveType: '2g' })).toBe(false);
    expect(mayFetchAhead({ effectiveType: 'slow-2g' })).toBe(false);
  });
});
