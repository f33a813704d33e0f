/**
 * The inactivity warning in real time (issue 28, decision 021): nothing faked, nothing moved. Starts its
 * own portal (port 3394, embedded database, demo data), signs a demo customer in through the real pages
 * in Debian's Chromium, presses a key, then waits: the real idle time (the site settings' 15 minutes)
 * until the warning shows, then the real countdown until the sign-in page says why the customer was
 * signed out. Prints each moment with how far it was from when the rule says it is due.
 *
 * Run with `npm run bench:idle` (about 16 minutes). Options: `--tabs 2` (a second tab opened from the
 * first, left alone too: both must be warned and both signed out), `--poll-ms N` (how often the page is
 * looked at, default 250). Exits 1 when the warning or the sign-out is more than 2 s from due, or never
 * comes. Not part of the test run: the journeys (e2e/idle.spec.ts) move the page clock instead.
 */
import { chromium, request as playwrightRequest, type Page } from '@playwright/test';
import { demo, signIn } from '../e2e/auth-helpers';
import { startPortal } from './support/portal';

const port = 3394;
const toleranceMs = 2_000;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

const tabs = option('tabs', 1);
const pollMs = option('poll-ms', 250);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Polls (in real time) until `done` holds in every page; the moment it first held in all of them. */
async function whenAll(
  pages: Page[],
  done: (page: Page) => Promise<boolean>,
  limitMs: number,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const results = await Promise.all(pages.map(done));
    if (results.every(Boolean)) return Date.now();
    if (Date.now() - started > limitMs) return Number.NaN;
    await sleep(pollMs);
  }
}

async function main() {
  const portal = await startPortal({ port });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const request = await playwrightRequest.newContext({ baseURL: portal.url });
  const problems: string[] = [];
  try {
    const settingsResponse = await request.get('/api/v1/content/getbytype?type=SiteSettings');
    const [settings] = (await settingsResponse.json()) as Array<{
      idleTimeoutMinutes: number;
      idleCountdownSeconds: number;
    }>;
    if (!settings) throw new Error('the content service answered no site settings');
    const idleMs = settings.idleTimeoutMinutes * 60_000;
    const countdownMs = settings.idleCountdownSeconds * 1000;
    console.log(
      `Site settings: warn after ${settings.idleTimeoutMinutes} idle minutes, sign out ${settings.idleCountdownSeconds} s later; ${tabs} tab(s); polled every ${pollMs} ms`,
    );

    const context = await browser.newContext({
      baseURL: portal.url,
      locale: 'en-GB',
      timezoneId: 'Europe/London',
    });
    const page = await context.newPage();
    const { david } = demo;
    await page.goto('/login');
    await signIn(page, request, david, { number: david.landline, radio: david.landlineCallRadio });
    const pages = [page];
    for (let i = 1; i < tabs; i += 1) {
      const [next] = await Promise.all([
        context.waitForEvent('page'),
        page.evaluate(() => window.open('/account/policies/documents')),
      ]);
      await next.getByRole('heading', { level: 1 }).waitFor();
      pages.push(next);
    }
    await page.bringToFront();
    await page.keyboard.press('Shift');
    const lastActive = Date.now();
    console.log(`${clock(lastActive)}  signed in; last key pressed. Waiting in real time.`);

    const warning = (p: Page) => p.getByRole('dialog', { name: 'Are you still there?' });
    const warnedAt = await whenAll(pages, (p) => warning(p).isVisible(), idleMs + 60_000);
    if (Number.isNaN(warnedAt)) {
      problems.push(`no warning within a minute of the idle time (${seconds(idleMs)})`);
    } else {
      const late = warnedAt - lastActive - idleMs;
      console.log(
        `${clock(warnedAt)}  warning shown in ${tabs === 1 ? 'the tab' : 'every tab'}: ${seconds(warnedAt - lastActive)} after the last key (due at ${seconds(idleMs)}; ${late >= 0 ? '+' : ''}${seconds(late)})`,
      );
      if (Math.abs(late) > toleranceMs) problems.push(`the warning came ${seconds(late)} from due`);

      const signedOutAt = await whenAll(
        pages,
        async (p) =>
          new URL(p.url()).pathname === '/login' &&
          (await p.getByText('We signed you out because you had not done anything for a while.').isVisible()),
        countdownMs + 60_000,
      );
      if (Number.isNaN(signedOutAt)) {
        problems.push('not signed out within a minute of the countdown ending');
      } else {
        const lateOut = signedOutAt - warnedAt - countdownMs;
        console.log(
          `${clock(signedOutAt)}  signed out, the sign-in page saying why: ${seconds(signedOutAt - warnedAt)} after the warning (due at ${seconds(countdownMs)}; ${lateOut >= 0 ? '+' : ''}${seconds(lateOut)})`,
        );
        if (Math.abs(lateOut) > toleranceMs) problems.push(`the sign-out came ${seconds(lateOut)} from due`);
      }
    }
    await context.close();
  } finally {
    await request.dispose();
    await browser.close();
    await portal.stop();
  }
  if (problems.length > 0) {
    console.log(`\nNot as the rule says:\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nBoth within ${seconds(toleranceMs)} of due.`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
