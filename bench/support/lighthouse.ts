/**
 * Lighthouse (the `lighthouse` npm package, pinned to 12.2.3: later versions want Node 22) on pages of the
 * portal, in the Chromium the page-timing benchmark already runs, through its remote-debugging port.
 * Lighthouse's default configuration is its mobile profile: a Moto G Power sized screen, simulated slow
 * 4G (150 ms, 1.6 Mbps) and a 4x slower CPU. Public pages get a fresh tab (Lighthouse resets their
 * storage); the signed-in page is audited in the tab the benchmark signed in (its session storage is the
 * sign-in), with the storage reset turned off.
 */
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer, { type Page as PuppeteerPage } from 'puppeteer-core';
import { median } from './portal';

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  /** Milliseconds (CLS: a score). */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** Accessibility audits that failed, by id. */
  failedA11y: string[];
}

interface LighthousePage {
  path: string;
  signedIn: boolean;
  /** Targets of issue 15: the lowest performance score, and for sign-in the LCP and TBT ceilings. */
  minPerformance: number;
  maxLcp?: number;
  maxTbt?: number;
}

const lighthousePages: LighthousePage[] = [
  { path: '/login', signedIn: false, minPerformance: 95, maxLcp: 1800, maxTbt: 150 },
  { path: '/register', signedIn: false, minPerformance: 95 },
  { path: '/forgotten-password', signedIn: false, minPerformance: 95 },
  { path: '/help', signedIn: false, minPerformance: 95 },
  { path: '/account/dashboard', signedIn: true, minPerformance: 90 },
];

/**
 * How Lighthouse slows the load to its mobile profile. `devtools` applies the profile's network (150 ms,
 * 1.6 Mbps) and CPU (4x) limits to the real load and measures it; `simulate` (Lighthouse's default) loads
 * at full speed and estimates the slow load from the trace. On loopback the whole page, scripts included,
 * arrives within a frame, so the simulation counts every script as needed before the first paint even
 * when the HTML alone paints the page (server rendering): decision 016 gives the figures of both.
 */
export type Throttling = 'devtools' | 'simulate';

const flagsFor = (throttling: Throttling): Flags => ({
  output: 'json',
  logLevel: 'error',
  onlyCategories: ['performance', 'accessibility'],
  throttlingMethod: throttling,
});

function figures(lhr: Result): LighthouseFigures {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const a11yRefs = lhr.categories['accessibility']?.auditRefs ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    speedIndex: audit('speed-index'),
    failedA11y: a11yRefs
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => ref.id),
  };
}

/** One Lighthouse run of a URL: in a new tab, or in the given (signed-in) tab. */
async function runOnce(
  url: string,
  port: number,
  throttling: Throttling,
  page?: PuppeteerPage,
): Promise<LighthouseFigures> {
  const flags = flagsFor(throttling);
  const result = page
    ? await lighthouse(url, { ...flags, disableStorageReset: true }, undefined, page)
    : await lighthouse(url, { ...flags, port });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  return figures(result.lhr);
}

export interface LighthouseRow {
  page: LighthousePage;
  runs: LighthouseFigures[];
  failures: string[];
}

/**
 * Runs Lighthouse `runs` times on each page, page by page in turn. `signedInUrl` is the address of the
 * tab that is signed in (found among the browser's tabs), or undefined when the sign-in failed.
 */
export async function runLighthouse(options: {
  baseUrl: string;
  port: number;
  runs: number;
  signedInUrl: string | undefined;
  throttling: Throttling;
  progress: (text: string) => void;
}): Promise<LighthouseRow[]> {
  const rows: LighthouseRow[] = lighthousePages.map((page) => ({ page, runs: [], failures: [] }));
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${options.port}`,
    defaultViewport: null,
  });
  try {
    const tabs = await browser.pages();
    const signedInTab = options.signedInUrl
      ? tabs.find((tab) => tab.url() === options.signedInUrl)
      : undefined;
    for (let run = 1; run <= options.runs; run += 1) {
      for (const row of rows) {
        options.progress(`lighthouse: run ${run} of ${options.runs}, ${row.page.path}...`);
        const url = `${options.baseUrl}${row.page.path}`;
        try {
          if (row.page.signedIn && !signedInTab) throw new Error('no signed-in tab');
          row.runs.push(
            await runOnce(url, options.port, options.throttling, row.page.signedIn ? signedInTab : undefined),
          );
        } catch (error) {
          row.failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }
  } finally {
    await browser.disconnect();
  }
  return rows;
}

/** The median figures of a page's runs. */
function medianFigures(runs: LighthouseFigures[]): LighthouseFigures {
  const mid = (pick: (f: LighthouseFigures) => number) => median(runs.map(pick));
  return {
    performance: mid((f) => f.performance),
    accessibility: mid((f) => f.accessibility),
    fcp: mid((f) => f.fcp),
    lcp: mid((f) => f.lcp),
    tbt: mid((f) => f.tbt),
    cls: mid((f) => f.cls),
    speedIndex: mid((f) => f.speedIndex),
    failedA11y: [...new Set(runs.flatMap((f) => f.failedA11y))],
  };
}

/** Prints the table and returns the targets missed. */
export function reportLighthouse(rows: LighthouseRow[], throttling: Throttling): string[] {
  const missed: string[] = [];
  console.log(
    `\nLighthouse 12 (mobile profile: slow 4G and 4x CPU, ${throttling === 'devtools' ? 'applied' : 'simulated'}), ` +
      'median of the runs. Targets (issue 15): ' +
      'performance 95 on the public pages and 90 on the dashboard, accessibility 100, sign-in LCP < 1800 ms ' +
      'and TBT < 150 ms.',
  );
  const header = ['page', 'runs', 'perf', 'a11y', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'verdict'];
  const body = rows.map((row) => {
    if (row.runs.length === 0) {
      missed.push(`lighthouse ${row.page.path}: no run succeeded (${row.failures.join('; ')})`);
      return [row.page.path, '0', '-', '-', '-', '-', '-', '-', '-', 'failed'];
    }
    const f = medianFigures(row.runs);
    const problems: string[] = [];
    if (f.performance < row.page.minPerformance)
      problems.push(`performance ${f.performance} < ${row.page.minPerformance}`);
    if (f.accessibility < 100) problems.push(`accessibility ${f.accessibility} (${f.failedA11y.join(', ')})`);
    if (row.page.maxLcp !== undefined && !(f.lcp < row.page.maxLcp))
      problems.push(`LCP ${Math.round(f.lcp)} ms`);
    if (row.page.maxTbt !== undefined && !(f.tbt < row.page.maxTbt))
      problems.push(`TBT ${Math.round(f.tbt)} ms`);
    if (row.failures.length > 0) problems.push(`${row.failures.length} run(s) failed`);
    for (const problem of problems) missed.push(`lighthouse ${row.page.path}: ${problem}`);
    return [
      row.page.path,
      String(row.runs.length),
      String(f.performance),
      String(f.accessibility),
      String(Math.round(f.fcp)),
      String(Math.round(f.lcp)),
      String(Math.round(f.tbt)),
      f.cls.toFixed(3),
      String(Math.round(f.speedIndex)),
      problems.length === 0 ? 'met' : 'missed',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of body) console.log(line(row));
  return missed;
}
