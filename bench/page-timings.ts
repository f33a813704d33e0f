/// <reference lib="dom" />
/**
 * Page-timing benchmark: what a visitor experiences while the portal's pages load, in Debian's Chromium
 * (headless, /usr/bin/chromium), measured in the page with the web-vitals library: time to first byte,
 * first and largest contentful paint, cumulative layout shift, and "ready": when the page's main heading
 * can be read (shown, and not under the full-page loader, which stays up a second after a page renders),
 * and for the dashboard "data": its renewals, policies and quotes on screen (each region showing an item,
 * with the main heading readable), not just its heading. Also the Navigation Timing milestones (DOMContentLoaded, load), the bytes transferred and the requests.
 *
 * Two profiles: desktop (1280x800, no throttling) and mobile (a 390x844 touch screen on Lighthouse's
 * "slow 4G": 150 ms latency, 1.6 Mbps down, 750 kbps up; the CPU slowed 4x). Each page is loaded cold
 * (a new browser context, so an empty cache) `--runs` times, and once warm (a second load in the first
 * run's context, assets cached). The signed-in dashboard is a reload of a tab signed in through the real
 * UI (session restore included), its caches and the SPA's stored user data emptied before each cold
 * reload, so that the six calls of the user data run as just after sign-in (a warm reload within a minute
 * uses the stored answers): one sign-in per profile, because an account may be sent only 10 codes an hour. Before measuring, each public page is loaded
 * once, unmeasured, so that no run pays for the server's first requests.
 *
 * Run with `npm run bench:pages`. Options: `--runs N` (cold loads per page and profile, default 5; the
 * median and the worst are shown), `--profile desktop|mobile` (default both), `--page PATH` (one page),
 * `--lighthouse-runs N` (Lighthouse runs per page, default 3, 0 for none; support/lighthouse.ts),
 * `--lighthouse-throttling devtools|simulate` (default devtools),
 * `--lighthouse-only`. Starts its own portal on
 * port 3393 (see support/portal.ts). Targets: Google's "good" Core Web Vitals (TTFB 800 ms, FCP 1800 ms,
 * LCP 2500 ms, CLS 0.1) for the mobile medians, and for the dashboard (issue 11) data on screen within
 * 2.0 s and CLS under 0.05. Exits 1 when a page failed to load or a mobile median is over a target.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type CDPSession,
  type Page,
  type Response,
} from '@playwright/test';
import type * as WebVitals from 'web-vitals';
import { codeIn, demo } from '../e2e/auth-helpers';
import { reportLighthouse, runLighthouse } from './support/lighthouse';
import { answers, median, root, sleep, startPortal } from './support/portal';

const port = 3393;
/** Chromium's remote-debugging port, where Lighthouse attaches. */
const debuggingPort = 9393;
/** The SPA's session-storage key for the user data (apps/web/src/session/storage-keys.ts). */
const userDataKey = 'userData';
const executablePath = '/usr/bin/chromium';
/**
 * The web-vitals browser build, made global: Playwright runs each init script inside a function, where
 * the build's top-level `var webVitals` would stay local.
 */
const webVitalsScript = `${readFileSync(
  path.join(root, 'node_modules', 'web-vitals', 'dist', 'web-vitals.iife.js'),
  'utf8',
)}\nwindow.webVitals = webVitals;`;
/** Throttled, a cold load takes a few seconds; this long means it is not coming. */
const loadTimeoutMs = 60_000;
/** Google's "good" thresholds (https://web.dev/articles/vitals). */
const targets = { ttfb: 800, fcp: 1800, lcp: 2500, cls: 0.1 } as const;
type TargetMetric = keyof typeof targets;

/** The demo customer of the browser journeys, who lands on her dashboard. */
const customer = { ...demo.margaret, name: 'Margaret Thompson' };

interface PageSpec {
  path: string;
  /** The main heading the visitor reads, as the browser journeys check it (all of it). */
  heading: string | RegExp;
  signedIn?: boolean;
  /**
   * The regions (by their heading) whose data the page is for: "data" is when each shows at least one
   * item (laid out and visible) and the main heading is readable, i.e. the data is on screen and the
   * full-page loader is gone.
   */
  dataRegions?: string[];
}

const allPages: PageSpec[] = [
  { path: '/login', heading: 'Sign in to your account' },
  { path: '/register', heading: 'Register for an online account' },
  { path: '/help', heading: 'Help' },
  { path: '/help/faqs', heading: 'Help with your online account' },
  { path: '/no-such-page', heading: 'Page not found' },
  // The greeting follows the time of day; the name comes with the profile, one of the six calls.
  {
    path: '/account/dashboard',
    heading: new RegExp(`^Good (morning|afternoon|evening) ${customer.name}: Your account$`),
    signedIn: true,
    // Margaret's renewal, her policies and her quotes (as the dashboard journey finds them).
    dataRegions: ['Policies due for renewal', 'Your policies', 'Your quotes'],
  },
];

/** The data regions of each page, for the probe (which runs in the page, so gets plain data). */
const dataRegionsByPath: Record<string, string[]> = Object.fromEntries(
  allPages.filter((p) => p.dataRegions).map((p) => [p.path, p.dataRegions!]),
);

/** Issue 11: the signed-in dashboard on the phone profile, data on screen and layout shift (medians). */
const dashboardTargets = { data: 2000, cls: 0.05 } as const;

type ProfileName = 'desktop' | 'mobile';

interface Profile {
  name: ProfileName;
  description: string;
  context: BrowserContextOptions;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
  cpuSlowdown?: number;
}

const profiles: Profile[] = [
  {
    name: 'desktop',
    description: '1280x800, no throttling',
    context: { viewport: { width: 1280, height: 800 } },
  },
  {
    name: 'mobile',
    description: '390x844 touch screen, slow 4G (150 ms, 1.6 Mbps down, 750 kbps up), CPU slowed 4x',
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    network: {
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    },
    cpuSlowdown: 4,
  },
];

// ---------------------------------------------------------------------------------------------------
// Options

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const runs = Number(option('--runs') ?? 5);
/** Lighthouse runs per page (their median is reported); 0 skips Lighthouse. */
const lighthouseRuns = Number(option('--lighthouse-runs') ?? 3);
/** How Lighthouse throttles: `devtools` (applied, the default) or `simulate` (support/lighthouse.ts). */
const lighthouseThrottling = option('--lighthouse-throttling') === 'simulate' ? 'simulate' : 'devtools';
/** Only the Lighthouse part. */
const lighthouseOnly = process.argv.includes('--lighthouse-only');
if (!Number.isInteger(runs) || runs < 1) {
  console.error('bench:pages: --runs needs a whole number of at least 1');
  process.exit(2);
}
const profileOption = option('--profile');
const chosenProfiles = profiles.filter((p) => profileOption === undefined || p.name === profileOption);
if (chosenProfiles.length === 0) {
  console.error('bench:pages: --profile is desktop or mobile');
  process.exit(2);
}
const pageOption = option('--page');
const chosenPages = allPages.filter((p) => pageOption === undefined || p.path === pageOption);
if (chosenPages.length === 0) {
  console.error(`bench:pages: --page is one of ${allPages.map((p) => p.path).join(', ')}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------
// In the page

/** What the page records about itself, from before its own scripts run. */
interface PageTimings {
  ttfb?: number;
  fcp?: number;
  lcp?: number;
  cls?: number;
  /** The element of the latest LCP candidate, described briefly. */
  lcpElement?: string;
  /** Each main heading's text, with the time (performance.now()) it was first laid out and visible. */
  shown: Record<string, number>;
  /** The same, for when it could first be read: nothing over it. */
  readable: Record<string, number>;
  /** When every data region of the page first showed an item with a readable main heading. */
  data?: number;
  /** When every data region first showed an item, readable or not (under the loader). */
  filled?: number;
  /** The elements that moved most, with their share of the layout shift, e.g. `footer 0.31`. */
  shifted?: string;
}

declare global {
  interface Window {
    webVitals?: typeof WebVitals;
    __pageTimings?: PageTimings;
  }
}

/**
 * Page-side code must stay plain: tsx compiles this file with esbuild's keepNames, which wraps named
 * inner functions in a `__name` helper the page does not have. This fails early rather than in the page.
 */
function pageCode<F extends (...args: never[]) => unknown>(fn: F): F {
  if (fn.toString().includes('__name(')) {
    throw new Error(`${fn.name} runs in the page: use only anonymous inner functions`);
  }
  return fn;
}

/**
 * An init script, after web-vitals: keeps the latest value of each metric (reportAllChanges, because LCP
 * and CLS are final only once the page is hidden or used, which a measured load never is) and notes
 * when each main heading is shown (laid out and visible, as Playwright sees it) and when it is readable
 * (also the topmost element at its centre): the full-page loader's overlay, nearly opaque, stays over a
 * rendered page for a second.
 */
function installProbe(dataRegions: Record<string, string[]>): void {
  const timings: PageTimings = { shown: {}, readable: {} };
  window.__pageTimings = timings;
  const vitals = window.webVitals;
  if (vitals) {
    const opts = { reportAllChanges: true };
    vitals.onTTFB((metric) => (timings.ttfb = metric.value), opts);
    vitals.onFCP((metric) => (timings.fcp = metric.value), opts);
    vitals.onCLS((metric) => {
      timings.cls = metric.value;
      const moved = new Map<string, number>();
      for (const entry of metric.entries as (PerformanceEntry & {
        value: number;
        sources?: { node?: Node | null }[];
      })[]) {
        for (const source of entry.sources ?? []) {
          const node = source.node;
          const element = node instanceof Element ? node : node?.parentElement;
          if (!element) continue;
          const name = element.className ? `${element.tagName}.${element.className}` : element.tagName;
          const key = name.toLowerCase().slice(0, 60);
          moved.set(key, (moved.get(key) ?? 0) + entry.value / (entry.sources?.length ?? 1));
        }
      }
      timings.shifted = Array.from(moved)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([name, value]) => `${name} ${value.toFixed(3)}`)
        .join(', ');
    }, opts);
    vitals.onLCP((metric) => {
      timings.lcp = metric.value;
      const element = metric.entries.at(-1)?.element;
      if (element) {
        const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ');
        const label = element.className ? `${element.tagName}.${element.className}` : element.tagName;
        timings.lcpElement = `${label.toLowerCase()} "${text.slice(0, 40)}${text.length > 40 ? '...' : ''}"`;
      }
    }, opts);
  }
  const shown = new Set<string>();
  const readable = new Set<string>();
  let dataSeen = false;
  let filledSeen = false;
  new MutationObserver(() => {
    const headings = Array.from(
      document.querySelectorAll<HTMLElement>('h1, [role="heading"][aria-level="1"]'),
    );
    for (const heading of headings) {
      const text = (heading.textContent ?? '').trim();
      if (!text || readable.has(text)) continue;
      const box = heading.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (!heading.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      // Changed now, painted in the coming frame.
      if (!shown.has(text)) {
        shown.add(text);
        requestAnimationFrame(() => (timings.shown[text] = performance.now()));
      }
      const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
      const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
      const top = document.elementFromPoint(x, y);
      if (!top || !heading.contains(top)) continue;
      readable.add(text);
      requestAnimationFrame(() => (timings.readable[text] = performance.now()));
    }
    const regions = dataRegions[location.pathname];
    if (!regions || dataSeen) return;
    const sections = Array.from(document.querySelectorAll<HTMLElement>('section[aria-labelledby]'));
    const filled = regions.every((name) =>
      sections.some((section) => {
        const label = document.getElementById(section.getAttribute('aria-labelledby') ?? '');
        if ((label?.textContent ?? '').trim() !== name) return false;
        return Array.from(section.querySelectorAll('li')).some((item) =>
          item.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
        );
      }),
    );
    if (!filled) return;
    if (timings.filled === undefined && !filledSeen) {
      filledSeen = true;
      requestAnimationFrame(() => (timings.filled = performance.now()));
    }
    if (readable.size === 0) return;
    dataSeen = true;
    requestAnimationFrame(() => (timings.data = performance.now()));
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

/** What a load looked like from the page, once it has settled. */
interface PageReading {
  timings: PageTimings;
  responseStart: number;
  domContentLoaded: number;
  loadEvent: number;
  bytes: number;
  requests: number;
}

async function readPage(): Promise<PageReading> {
  // Paint entries (LCP, layout shifts) reach their observers a frame or two after the paint.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const entries = [
    ...(navigation ? [navigation] : []),
    ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]),
  ];
  return {
    timings: window.__pageTimings ?? { shown: {}, readable: {} },
    responseStart: navigation?.responseStart ?? Number.NaN,
    domContentLoaded: navigation?.domContentLoadedEventEnd ?? Number.NaN,
    loadEvent: navigation?.loadEventEnd ?? Number.NaN,
    bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0),
    // A cache hit transfers nothing; a revalidation transfers its headers.
    requests: entries.filter((entry) => entry.transferSize > 0).length,
  };
}

// ---------------------------------------------------------------------------------------------------
// In the browser

/** One page load's figures, in ms from the start of navigation (CLS and sizes excepted). */
interface Load {
  ttfb: number;
  fcp: number;
  lcp: number;
  shown: number;
  ready: number;
  /** Pages with data regions: the data on screen (see PageSpec); NaN for the others. */
  data: number;
  /** The same, readable or not: under the full-page loader. */
  filled: number;
  domContentLoaded: number;
  loadEvent: number;
  cls: number;
  bytes: number;
  requests: number;
  lcpElement: string;
  shifted: string;
}

type Figure = Exclude<keyof Load, 'lcpElement' | 'shifted'>;

/** The first line: Playwright's errors go on with a call log. */
const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** Console errors, uncaught errors and failed requests, counted per profile, page and text. */
const problems = new Map<string, number>();

function watchProblems(page: Page, where: () => string): void {
  const note = (text: string) => {
    const key = `${where()}: ${text}`;
    problems.set(key, (problems.get(key) ?? 0) + 1);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => note(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    note(
      `request failed: ${request.method()} ${new URL(request.url()).pathname} (${request.failure()?.errorText})`,
    ),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) {
      note(`HTTP ${response.status()}: ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
}

interface Tab {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}

/** A new context (empty cache and storage) with the probe installed, and a DevTools session on its page. */
async function openTab(browser: Browser, profile: Profile, where: () => string): Promise<Tab> {
  const context = await browser.newContext({
    ...profile.context,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
  });
  try {
    await context.addInitScript({ content: webVitalsScript });
    await context.addInitScript(pageCode(installProbe), dataRegionsByPath);
    const page = await context.newPage();
    watchProblems(page, where);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    return { context, page, cdp };
  } catch (error) {
    await context.close();
    throw error;
  }
}

async function throttle(tab: Tab, profile: Profile): Promise<void> {
  if (profile.network) {
    await tab.cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  }
  if (profile.cpuSlowdown)
    await tab.cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
}

/** Empties the HTTP cache and the renderer's memory cache, which a reload would otherwise still use. */
async function emptyCaches(tab: Tab): Promise<void> {
  await tab.cdp.send('Network.clearBrowserCache');
  await tab.cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await tab.cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
}

/** Navigates (goto or reload), waits until the main heading is readable and the page has settled. */
async function measure(tab: Tab, spec: PageSpec, navigate: () => Promise<Response | null>): Promise<Load> {
  const { page } = tab;
  const response = await navigate();
  if (!response) throw new Error('no response to the navigation');
  if (response.status() >= 400) throw new Error(`the page answered ${response.status()}`);
  // The heading's text as the probe keys it (its textContent, when the spec gives a pattern).
  let heading = typeof spec.heading === 'string' ? spec.heading : '';
  try {
    // A pattern is matched against the text, as the probe keys headings by their text.
    const h1 =
      typeof spec.heading === 'string'
        ? page.getByRole('heading', { level: 1, name: spec.heading, exact: true })
        : page.locator('h1').filter({ hasText: spec.heading });
    await h1.waitFor({ state: 'visible', timeout: loadTimeoutMs });
    heading ||= ((await h1.textContent()) ?? '').trim();
    await page.waitForFunction((text) => window.__pageTimings?.readable[text] !== undefined, heading, {
      timeout: 10_000,
      polling: 50,
    });
    if (spec.dataRegions) {
      await page.waitForFunction(() => window.__pageTimings?.data !== undefined, undefined, {
        timeout: loadTimeoutMs,
        polling: 50,
      });
    }
  } catch (error) {
    const seen = await page.evaluate(() => Object.keys(window.__pageTimings?.readable ?? {})).catch(() => []);
    throw new Error(
      `"${heading || String(spec.heading)}" or its data was not readable at ${page.url()} ` +
        `(headings read: ${seen.join(', ') || 'none'}): ` +
        errorText(error),
    );
  }
  const at = new URL(page.url()).pathname;
  if (at !== spec.path) throw new Error(`sent on to ${at}`);
  await page.waitForLoadState('load', { timeout: loadTimeoutMs });
  // Whatever the page fetches after it is readable still costs the visitor bytes; counted when quiet.
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  const reading = await page.evaluate(pageCode(readPage));
  const { timings } = reading;
  return {
    ttfb: timings.ttfb ?? reading.responseStart,
    fcp: timings.fcp ?? Number.NaN,
    lcp: timings.lcp ?? Number.NaN,
    shown: timings.shown[heading] ?? Number.NaN,
    ready: timings.readable[heading] ?? Number.NaN,
    data: timings.data ?? Number.NaN,
    filled: timings.filled ?? Number.NaN,
    domContentLoaded: reading.domContentLoaded,
    loadEvent: reading.loadEvent,
    // Reported from the first shift on: none reported is none happened.
    cls: timings.cls ?? 0,
    bytes: reading.bytes,
    requests: reading.requests,
    lcpElement: timings.lcpElement ?? '-',
    shifted: timings.shifted ?? '',
  };
}

interface OutboxMessage {
  to: string;
  body: string;
  createdAt: string;
  kind: string;
}

const messageKey = (m: OutboxMessage) => `${m.createdAt}|${m.kind}|${m.body}`;

async function outbox(baseUrl: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/outbox/api?to=${customer.mobile}&limit=20`);
  if (!response.ok) throw new Error(`the dev outbox answered ${response.status}`);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** The code in the first message (newest first) that was not in the outbox before. */
async function nextCode(baseUrl: string, seen: Set<string>): Promise<string> {
  const started = performance.now();
  while (performance.now() - started < 15_000) {
    const message = (await outbox(baseUrl)).filter((m) => !seen.has(messageKey(m))).at(-1);
    if (message) return codeIn(message.body);
    await sleep(200);
  }
  throw new Error('no code was sent to the demo customer');
}

/** Signs the demo customer in through the sign-in pages and a text-message code (not measured). */
async function signIn(page: Page, baseUrl: string): Promise<void> {
  const seen = new Set((await outbox(baseUrl)).map(messageKey));
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('textbox', { name: 'Email address' }).fill(customer.email);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/login\/verify$/);
  await page.getByRole('radio', { name: customer.textRadio, exact: true }).check();
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.waitForURL(/\/login\/verify\/challenge$/);
  const code = await nextCode(baseUrl, seen);
  await page.getByRole('textbox', { name: /^Digit 1 of/ }).click();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/account/dashboard', { timeout: 20_000 });
  await page.getByRole('heading', { level: 1 }).waitFor();
}

// ---------------------------------------------------------------------------------------------------
// Measuring

interface Series {
  cold: Load[];
  warm?: Load;
  failures: string[];
}

type Results = Map<ProfileName, Map<string, Series>>;

/** A line that rewrites itself on a terminal; left out of logs. */
function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}

async function measureProfile(
  browser: Browser,
  baseUrl: string,
  profile: Profile,
): Promise<Map<string, Series>> {
  const series = new Map<string, Series>(chosenPages.map((spec) => [spec.path, { cold: [], failures: [] }]));
  const record = async (spec: PageSpec, kind: 'cold' | 'warm', work: () => Promise<Load>) => {
    const entry = series.get(spec.path)!;
    try {
      const load = await work();
      if (kind === 'cold') entry.cold.push(load);
      else entry.warm = load;
    } catch (error) {
      entry.failures.push(`${kind}: ${errorText(error)}`);
    }
  };

  // The signed-in page is reloaded in one tab (see the header); it signs in at full speed.
  let signedIn: Tab | undefined;
  const dashboard = chosenPages.find((spec) => spec.signedIn);
  try {
    if (dashboard) {
      try {
        signedIn = await openTab(browser, profile, () => `${profile.name} ${dashboard.path}`);
        await signIn(signedIn.page, baseUrl);
        await throttle(signedIn, profile);
      } catch (error) {
        series.get(dashboard.path)!.failures.push(`sign-in: ${errorText(error)}`);
        await signedIn?.context.close();
        signedIn = undefined;
      }
    }
    // Run by run through the pages, so that noise from anything else on the machine is shared out.
    for (let run = 1; run <= runs; run += 1) {
      progress(`${profile.name}: run ${run} of ${runs}...`);
      for (const spec of chosenPages) {
        if (spec.signedIn) {
          const tab = signedIn;
          if (!tab) continue;
          await record(spec, 'cold', async () => {
            await emptyCaches(tab);
            // As just after sign-in: the six calls run (the SPA keeps their answers a minute in the tab).
            await tab.page.evaluate((key) => sessionStorage.removeItem(key), userDataKey);
            return measure(tab, spec, () => tab.page.reload({ waitUntil: 'commit' }));
          });
          if (run === 1)
            await record(spec, 'warm', () =>
              measure(tab, spec, () => tab.page.reload({ waitUntil: 'commit' })),
            );
          continue;
        }
        let tab: Tab | undefined;
        try {
          tab = await openTab(browser, profile, () => `${profile.name} ${spec.path}`);
          await throttle(tab, profile);
          const open = tab;
          const load = () => open.page.goto(`${baseUrl}${spec.path}`, { waitUntil: 'commit' });
          await record(spec, 'cold', () => measure(open, spec, load));
          if (run === 1) await record(spec, 'warm', () => measure(open, spec, load));
        } catch (error) {
          series.get(spec.path)!.failures.push(`cold: ${errorText(error)}`);
        } finally {
          await tab?.context.close();
        }
      }
    }
    progress('');
  } finally {
    await signedIn?.context.close();
  }
  return series;
}

/** One unmeasured load of each public page, so that no run pays for the server's first requests. */
async function warmUpServer(browser: Browser, baseUrl: string): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    for (const spec of allPages.filter((p) => !p.signedIn)) {
      await page.goto(`${baseUrl}${spec.path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: loadTimeoutMs });
    }
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Reporting

const targetNames: Record<TargetMetric, string> = { ttfb: 'TTFB', fcp: 'FCP', lcp: 'LCP', cls: 'CLS' };

function summary(loads: Load[], figure: Figure): { median: number; worst: number } {
  const values = loads.map((load) => load[figure]).filter((value) => Number.isFinite(value));
  if (values.length === 0) return { median: Number.NaN, worst: Number.NaN };
  return { median: median(values), worst: Math.max(...values) };
}

function formatValue(figure: Figure, value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (figure === 'cls') return value.toFixed(3);
  if (figure === 'bytes') return (value / 1024).toFixed(1);
  return String(Math.round(value));
}

/** The figure nearest its target (the highest share of it), e.g. "LCP 0.62 of 2500 ms". */
function againstTargets(value: (metric: TargetMetric) => number): string {
  let worst: { metric: TargetMetric; ratio: number } | undefined;
  for (const metric of Object.keys(targets) as TargetMetric[]) {
    const ratio = value(metric) / targets[metric];
    if (Number.isFinite(ratio) && (!worst || ratio > worst.ratio)) worst = { metric, ratio };
  }
  if (!worst) return '-';
  const unit = worst.metric === 'cls' ? '' : ' ms';
  return `${targetNames[worst.metric]} ${worst.ratio.toFixed(2)} of ${targets[worst.metric]}${unit}`;
}

const columns: { title: string; figure?: Figure }[] = [
  { title: 'page' },
  { title: 'load' },
  { title: 'TTFB', figure: 'ttfb' },
  { title: 'FCP', figure: 'fcp' },
  { title: 'LCP', figure: 'lcp' },
  { title: 'shown', figure: 'shown' },
  { title: 'ready', figure: 'ready' },
  { title: 'filled', figure: 'filled' },
  { title: 'data', figure: 'data' },
  { title: 'DCL', figure: 'domContentLoaded' },
  { title: 'load ev.', figure: 'loadEvent' },
  { title: 'CLS', figure: 'cls' },
  { title: 'KB', figure: 'bytes' },
  { title: 'requests', figure: 'requests' },
  { title: 'nearest target' },
];

function printTable(profile: Profile, series: Map<string, Series>): void {
  const rows: string[][] = [];
  for (const spec of chosenPages) {
    const entry = series.get(spec.path)!;
    const cold = entry.cold;
    const coldCells = columns.map(({ title, figure }) => {
      if (title === 'page') return spec.path;
      if (title === 'load') return `cold x${cold.length}`;
      if (!figure) return againstTargets((metric) => summary(cold, metric).median);
      const { median: mid, worst } = summary(cold, figure);
      const [shownMid, shownWorst] = [formatValue(figure, mid), formatValue(figure, worst)];
      return shownWorst === shownMid ? shownMid : `${shownMid} (${shownWorst})`;
    });
    rows.push(coldCells);
    const warm = entry.warm;
    rows.push(
      columns.map(({ title, figure }) => {
        if (title === 'page') return '';
        if (title === 'load') return 'warm';
        if (!warm) return '-';
        if (!figure) return againstTargets((metric) => warm[metric]);
        return formatValue(figure, warm[figure]);
      }),
    );
  }
  const header = columns.map((c) => c.title);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i < 2 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
      )
      .join('  ');
  console.log(`\n${profile.name}: ${profile.description}`);
  console.log(line(header));
  for (const row of rows) console.log(line(row).trimEnd());
  if (profile.network) {
    // Chromium throttles what reaches the page, while timing entries keep the real network's times.
    console.log(
      `TTFB leaves out the emulated ${profile.network.latency} ms latency (Chromium delays delivering the ` +
        'response, not its timing entry); a real connection adds one or more round trips.',
    );
  }
}

function printNotes(results: Results): void {
  const lcpElements = new Map<string, Set<string>>();
  for (const [profile, series] of results) {
    for (const [pagePath, entry] of series) {
      for (const load of [...entry.cold, ...(entry.warm ? [entry.warm] : [])]) {
        const key = `${profile} ${pagePath}`;
        lcpElements.set(key, (lcpElements.get(key) ?? new Set()).add(load.lcpElement));
      }
    }
  }
  console.log('\nLargest contentful paint element:');
  for (const [key, elements] of lcpElements) console.log(`  ${key}: ${[...elements].join('; ')}`);
  const shifts = [...results].flatMap(([profile, series]) =>
    [...series].flatMap(([pagePath, entry]) =>
      [...entry.cold, ...(entry.warm ? [entry.warm] : [])]
        .filter((load) => load.shifted)
        .map((load) => `  ${profile} ${pagePath}: CLS ${load.cls.toFixed(3)}: ${load.shifted}`),
    ),
  );
  if (shifts.length > 0) console.log(`\nWhat moved (share of the layout shift):\n${shifts.join('\n')}`);
  console.log(
    problems.size === 0
      ? '\nNo console errors or failed requests.'
      : '\nConsole errors and failed requests (count):',
  );
  for (const [key, count] of [...problems].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${key} (${count})`);
}

/** The failures and the mobile medians over target, each a line of the verdict. */
function shortfalls(results: Results): string[] {
  const found: string[] = [];
  for (const [profile, series] of results) {
    for (const [pagePath, entry] of series) {
      for (const failure of entry.failures) found.push(`${profile} ${pagePath} failed: ${failure}`);
      if (profile !== 'mobile') continue;
      if (allPages.find((spec) => spec.path === pagePath)?.dataRegions) {
        const data = summary(entry.cold, 'data').median;
        const cls = summary(entry.cold, 'cls').median;
        if (!(data <= dashboardTargets.data)) {
          found.push(
            `mobile ${pagePath}: data on screen median ${formatValue('data', data)} ms is over ${dashboardTargets.data} ms`,
          );
        }
        if (!(cls < dashboardTargets.cls)) {
          found.push(
            `mobile ${pagePath}: CLS median ${formatValue('cls', cls)} is not under ${dashboardTargets.cls}`,
          );
        }
      }
      for (const metric of Object.keys(targets) as TargetMetric[]) {
        const { median: mid } = summary(entry.cold, metric);
        if (mid > targets[metric]) {
          const unit = metric === 'cls' ? '' : ' ms';
          found.push(
            `mobile ${pagePath}: ${targetNames[metric]} median ${formatValue(metric, mid)}${unit} is over ${targets[metric]}${unit}`,
          );
        }
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------

const portal = await startPortal({ port });
let browser: Browser | undefined;
try {
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
      `--remote-debugging-port=${debuggingPort}`,
    ],
  });
  await warmUpServer(browser, portal.url);
  const results: Results = new Map();
  if (!lighthouseOnly)
    for (const profile of chosenProfiles)
      results.set(profile.name, await measureProfile(browser, portal.url, profile));

  console.log(
    `Page loads in Chromium ${browser.version()} (headless, ${os.cpus().length} cores), portal at ${portal.url}; ` +
      `${runs} cold load${runs === 1 ? '' : 's'} per page and profile.`,
  );
  console.log(
    'Cold: median (worst, when different); warm: one load with cached assets. Times in ms from navigation\n' +
      'start. shown: the main heading laid out and visible; ready: also with nothing over it (readable);\n' +
      "filled: the dashboard's renewals, policies and quotes rendered (under the loader or not);\n" +
      'data: the same on screen, its heading readable (the loader gone).\n' +
      'DCL, load ev.: Navigation Timing. KB transferred (headers included); requests over the network.',
  );
  if (!lighthouseOnly) {
    for (const profile of chosenProfiles) printTable(profile, results.get(profile.name)!);
    printNotes(results);
  }
  const found = lighthouseOnly ? [] : shortfalls(results);

  if (lighthouseRuns > 0) {
    // The dashboard is audited in a tab signed in through the UI, as a customer would be.
    const context = await browser.newContext();
    let signedInUrl: string | undefined;
    try {
      const page = await context.newPage();
      await signIn(page, portal.url);
      signedInUrl = page.url();
    } catch (error) {
      console.log(`lighthouse: sign-in failed (${errorText(error)}); the dashboard is not audited`);
    }
    const rows = await runLighthouse({
      baseUrl: portal.url,
      port: debuggingPort,
      runs: lighthouseRuns,
      signedInUrl,
      throttling: lighthouseThrottling,
      progress,
    });
    progress('');
    await context.close();
    found.push(...reportLighthouse(rows, lighthouseThrottling));
  }

  if (!(await answers(`${portal.url}/healthz`))) {
    found.push(
      `the portal stopped answering; its output ends:\n${portal.output().trimEnd().split('\n').slice(-20).join('\n')}`,
    );
  }
  const checked = chosenProfiles.some((p) => p.name === 'mobile')
    ? ''
    : ' (mobile not measured: targets not checked)';
  console.log(`\nVerdict: ${found.length === 0 ? `ok${checked}` : 'NOT OK'}`);
  for (const line of found) console.log(`  ${line}`);
  process.exitCode = found.length === 0 ? 0 : 1;
} finally {
  await browser?.close();
  await portal.stop();
}
