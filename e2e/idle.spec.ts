import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';
import { demo, signIn, signOutButton, toDashboardPastMarketingStep } from './auth-helpers';

/*
 * Inactivity (customer-data §4, §9; decision 021). The idle time is shortened through content for these
 * journeys only: the site settings reach the page both from the content API and inside the HTML (the
 * public content block, decision 017), and both are rewritten on their way to this browser (1 idle minute,
 * 20 s countdown). Time in the page moves with Playwright's clock, and only as the idle timer's own timers
 * run: runFor, half a second at a time, firing each timer in turn. The one jump is the computer's sleep,
 * where the wall clock moves while timers do not (setSystemTime), which is what a sleep is.
 */

const { david, eleanorVaughan } = demo;
const IDLE_MS = 60_000;
const COUNTDOWN_SECONDS = 20;
const STEP_MS = 500;
/** The warning shows this soon after the idle time at the latest (one check, one step, one throttle). */
const LATE_MS = 2_000;
/**
 * And this soon before it at the earliest: one step, or in another tab the activity shared a moment
 * before the last (tabs share it at most once a second), read on that tab's own page clock.
 */
const EARLY_MS = 1_000;
const warningName = 'Are you still there?';

async function shortenIdleTime(context: BrowserContext) {
  await context.route('**/api/v1/content/getbytype?*', async (route) => {
    const response = await route.fetch();
    const settings = (await response.json()) as Array<Record<string, unknown>>;
    const shortened = settings.map((s) => ({
      ...s,
      idleTimeoutMinutes: IDLE_MS / 60_000,
      idleCountdownSeconds: COUNTDOWN_SECONDS,
    }));
    await route.fulfill({ response, json: shortened });
  });
  await context.route(
    (url) => url.pathname.startsWith('/account') || url.pathname.startsWith('/contact-us'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch({ maxRedirects: 0 });
      if (!(response.headers()['content-type'] ?? '').includes('text/html'))
        return route.fulfill({ response });
      const html = (await response.text())
        .replace(/"idleTimeoutMinutes":\d+/g, `"idleTimeoutMinutes":${IDLE_MS / 60_000}`)
        .replace(/"idleCountdownSeconds":\d+/g, `"idleCountdownSeconds":${COUNTDOWN_SECONDS}`);
      await route.fulfill({ response, body: html });
    },
  );
}

type Customer = Parameters<typeof signIn>[2];
type Phone = Parameters<typeof signIn>[3];
const davidsLandline: Phone = { number: david.landline, radio: david.landlineCallRadio };
const eleanorsMobile: Phone = { number: eleanorVaughan.mobile, radio: eleanorVaughan.textRadio };

async function signedInIdleReady(
  page: Page,
  request: Parameters<typeof signIn>[1],
  who: Customer = david,
  phone: Phone = davidsLandline,
) {
  await shortenIdleTime(page.context());
  watchInactivityCode(page);
  await page.clock.install();
  await page.goto('/login');
  await signIn(page, request, who, phone);
  await toDashboardPastMarketingStep(page);
  await settled(page);
}

/**
 * Lets a page that has just loaded finish (its loader goes a second after the page renders, and content
 * moving under a resting pointer is reported as mouse movement, which counts as activity), so that the
 * key pressed next is the last thing the customer did.
 */
async function settled(page: Page) {
  await page.clock.runFor(2_000);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The inactivity warning's code comes on demand, in real time, not the page's: the idle time starts
  // when it runs, so it must be running before the key that the test times the idle time from.
  await expect.poll(() => inactivityCodeLoaded.get(page) === true).toBe(true);
  await page.clock.runFor(STEP_MS);
}

/** Whether the page's current document has loaded the inactivity warning's code (watchInactivityCode). */
const inactivityCodeLoaded = new WeakMap<Page, boolean>();

function watchInactivityCode(page: Page) {
  inactivityCodeLoaded.set(page, false);
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      inactivityCodeLoaded.set(page, false);
  });
  page.on('requestfinished', (request) => {
    if (new URL(request.url()).pathname.startsWith('/assets/inactivity-modal-'))
      inactivityCodeLoaded.set(page, true);
  });
}

const pageNow = (page: Page) => page.evaluate(() => Date.now());
const warning = (page: Page) => page.getByRole('dialog', { name: warningName });

/**
 * When, in page time, the page received the key that `press` sends: read in the page, so that the time
 * the test takes to ask does not count (on a busy machine that is hundreds of milliseconds).
 */
async function keyPressedAt(page: Page, press: () => Promise<void>): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { keyPressedAt?: number };
    delete w.keyPressedAt;
    const record = () => (w.keyPressedAt = Date.now());
    document.addEventListener('keydown', record, { capture: true, once: true });
  });
  await press();
  const at = await page.evaluate(() => (window as unknown as { keyPressedAt?: number }).keyPressedAt);
  expect(at, 'the page received the key').toEqual(expect.any(Number));
  return at!;
}

/** The customer presses a key: the last thing they do before walking away. Returns the page's time. */
const lastActivity = (page: Page) => keyPressedAt(page, () => page.keyboard.press('Shift'));

/** Lets page time run, as the page's own timers run, until `done`; returns how long that took in page time. */
async function pageTimeUntil(page: Page, from: number, done: () => Promise<boolean>, limitMs: number) {
  for (;;) {
    if (await done()) return (await pageNow(page)) - from;
    if ((await pageNow(page)) - from > limitMs) return Infinity;
    await page.clock.runFor(STEP_MS);
  }
}

/** Expects the warning (in this tab and the others) at the idle time after `from`; returns when it showed. */
async function expectWarningAfterIdleTime(page: Page, from: number, others: Page[] = []): Promise<number> {
  const took = await pageTimeUntil(page, from, () => warning(page).isVisible(), IDLE_MS + 10_000);
  expect(took, 'the warning shows at the idle time').toBeGreaterThanOrEqual(IDLE_MS - EARLY_MS);
  expect(took, 'the warning shows at the idle time').toBeLessThanOrEqual(IDLE_MS + LATE_MS);
  for (const other of others) await expect(warning(other)).toBeVisible();
  return from + took;
}

/**
 * The countdown ends: the warning closes as the sign-out starts (its calls then run in real time, with
 * the clock no longer moved by steps), and every tab shows the sign-in page saying why.
 */
async function expectSignedOutWhenCountdownEnds(page: Page, shownAt: number, others: Page[] = []) {
  const took = await pageTimeUntil(page, shownAt, async () => !(await warning(page).isVisible()), 40_000);
  expect(took, 'signed out as the countdown ends').toBeGreaterThanOrEqual(COUNTDOWN_SECONDS * 1000 - 1_000);
  expect(took, 'signed out as the countdown ends').toBeLessThanOrEqual(COUNTDOWN_SECONDS * 1000 + LATE_MS);
  for (const tab of [page, ...others]) await expectSignedOutForInactivity(tab);
}

async function expectSignedOutForInactivity(tab: Page) {
  await expect(tab).toHaveURL(/\/login$/);
  await expect(
    tab.getByText('We signed you out because you had not done anything for a while.'),
  ).toBeVisible();
  expect(await tab.evaluate(() => sessionStorage.getItem('authenticated'))).toBe('0');
}

/** "Stay signed in", by keyboard; returns when (in page time) it was pressed. */
async function staySignedIn(page: Page): Promise<number> {
  const stayed = await keyPressedAt(page, () =>
    warning(page).getByRole('button', { name: 'Stay signed in' }).press('Enter'),
  );
  await expect(warning(page)).toHaveCount(0);
  return stayed;
}

/** A second tab opened from the first (it starts with a copy of the first tab's session, as Chrome does). */
async function openSecondTab(page: Page, path: string): Promise<Page> {
  const [second] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate((to) => window.open(to), path),
  ]);
  await expect(signOutButton(second)).toBeVisible();
  return second;
}

test.describe('inactivity', () => {
  test.describe.configure({ mode: 'default', timeout: 120_000 });

  test('warns at the idle time on a fresh page, and signs out when the countdown ends', async ({
    page,
    request,
  }) => {
    await signedInIdleReady(page, request);
    const shownAt = await expectWarningAfterIdleTime(page, await lastActivity(page));
    const dialog = warning(page);
    await expect(dialog).toContainText(/we will sign you out in \d+ seconds/i);
    await page.clock.runFor(200);
    await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
    // No empty band under the buttons: the window ends at its padding (20 px) and border.
    const band = await dialog.evaluate((d) => {
      const buttons = d.querySelector('.ui-modal__body')?.lastElementChild?.getBoundingClientRect();
      return buttons ? d.getBoundingClientRect().bottom - buttons.bottom : Infinity;
    });
    expect(band).toBeLessThanOrEqual(26);
    await expectNoSeriousA11yViolations(page);

    await expectSignedOutWhenCountdownEnds(page, shownAt);
    await page.goto('/account/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('warns again after "Stay signed in", after a reload, and after a call link', async ({
    page,
    request,
  }) => {
    await signedInIdleReady(page, request);
    await expectWarningAfterIdleTime(page, await lastActivity(page));
    const stayed = await staySignedIn(page);
    await expectWarningAfterIdleTime(page, stayed);
    await staySignedIn(page);

    await page.reload();
    await expect(signOutButton(page)).toBeVisible();
    await settled(page);
    await expectWarningAfterIdleTime(page, await lastActivity(page));
    await staySignedIn(page);

    // A "call us" link on a computer: the browser starts to leave the page (beforeunload) and stays.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeunload')));
    await expectWarningAfterIdleTime(page, await lastActivity(page));
    await dialogSignOut(page);
  });

  test('two tabs: activity in either keeps both, both are warned, and the countdown signs both out', async ({
    page,
    request,
  }) => {
    await signedInIdleReady(page, request);
    const second = await openSecondTab(page, '/account/policies/documents');
    // The customer works in the second tab for two idle periods: the first, left alone, is not warned.
    let last = await lastActivity(second);
    for (let i = 0; i < 6; i += 1) {
      await page.clock.runFor(20_000);
      last = await lastActivity(second);
    }
    await expect(warning(page)).toHaveCount(0);
    await expectWarningAfterIdleTime(page, last, [second]);
    // "Stay signed in" in one tab closes the warning in both.
    const stayed = await staySignedIn(second);
    await expect(warning(page)).toHaveCount(0);
    const shownAt = await expectWarningAfterIdleTime(second, stayed, [page]);
    await expectSignedOutWhenCountdownEnds(second, shownAt, [page]);
  });

  test('a tab that vanished without closing does not keep the others from timing out', async ({
    page,
    request,
  }) => {
    await signedInIdleReady(page, request);
    const second = await openSecondTab(page, '/account/bills-and-payments');
    await lastActivity(second);
    // Gone as a crashed or discarded tab goes: no unload handlers run.
    await second.close({ runBeforeUnload: false });
    const shownAt = await expectWarningAfterIdleTime(page, await lastActivity(page));
    await expectSignedOutWhenCountdownEnds(page, shownAt);
  });

  test('the computer slept: a warning that fell due shows on waking, and a longer sleep signs out', async ({
    page,
    request,
  }) => {
    await signedInIdleReady(page, request);
    const from = await lastActivity(page);
    await page.clock.runFor(10_000);
    // Asleep past the idle time, 8 s into the countdown: on waking, the warning with what is left of it.
    await page.clock.setSystemTime(from + IDLE_MS + 8_000);
    const took = await pageTimeUntil(page, from + IDLE_MS + 8_000, () => warning(page).isVisible(), 10_000);
    expect(took, 'the warning shows on waking').toBeLessThanOrEqual(LATE_MS);
    await expect(warning(page)).toContainText(/we will sign you out in (9|1[0-2]) seconds/i);
    await staySignedIn(page);

    // Asleep for two hours: on waking the customer is signed out, and told why.
    const again = await lastActivity(page);
    await page.clock.runFor(5_000);
    await page.clock.setSystemTime(again + 2 * 60 * 60_000);
    // Two seconds of page time on waking are enough; the sign-out's calls then run in real time, long
    // before the idle timer's own timeout (most of a minute of page time away) could fire.
    await page.clock.runFor(LATE_MS);
    await expect(warning(page)).toHaveCount(0);
    await expectSignedOutForInactivity(page);
  });

  test('a message being written when the countdown signs the customer out comes back after sign-in (issue 40)', async ({
    page,
    request,
  }) => {
    await signedInIdleReady(page, request, eleanorVaughan, eleanorsMobile);
    await page.goto('/contact-us');
    await settled(page);
    const form = page.getByRole('form', { name: 'Contact us' });
    await form.getByRole('radio', { name: 'Motor insurance' }).check();
    await form.getByRole('radio', { name: 'I have changed my vehicle' }).check();
    const message = 'I have sold the Volvo; the new car is a blue Skoda Octavia, from 3 March.';
    await form.getByRole('textbox', { name: 'Your message' }).fill(message);

    const shownAt = await expectWarningAfterIdleTime(page, await lastActivity(page));
    await expectSignedOutWhenCountdownEnds(page, shownAt);
    // Kept in this browser only, for this customer, and only what the form handed over.
    const kept = await page.evaluate(() => localStorage.getItem('portal.keptDrafts'));
    expect(JSON.parse(kept ?? '{}')).toEqual({
      'contact-us:contact-form': expect.objectContaining({
        path: '/contact-us',
        values: { primary: '2', secondary: expect.any(String), text: message },
      }),
    });

    // Signing in again comes back to the form, as typed, saying so.
    await signIn(page, request, eleanorVaughan, eleanorsMobile);
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'We kept the message you were writing when we signed you out.' }),
    ).toBeVisible();
    await expect(form.getByRole('radio', { name: 'Motor insurance' })).toBeChecked();
    await expect(form.getByRole('radio', { name: 'I have changed my vehicle' })).toBeChecked();
    await expect(form.getByRole('textbox', { name: 'Your message' })).toHaveValue(message);
    await expectNoSeriousA11yViolations(page);

    // Sent: the kept copy goes.
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(page).toHaveURL(/\/contact-us\/message-sent$/);
    expect(await page.evaluate(() => localStorage.getItem('portal.keptDrafts'))).toBeNull();
  });
});

async function dialogSignOut(page: Page) {
  await warning(page).getByRole('button', { name: 'Sign out now' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
