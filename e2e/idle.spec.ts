import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';
import { demo, signIn, signOutButton } from './auth-helpers';

/*
 * Inactivity. The idle time is shortened through content for these tests only: the site settings the
 * real content service answers are rewritten on their way to this page (1 idle minute, 20 s countdown);
 * nothing in the product changes. Time in the page moves with Playwright's clock.
 */

const { david } = demo;
const IDLE_MINUTES = 1;
const COUNTDOWN_SECONDS = 20;

async function shortenIdleTime(page: Page) {
  await page.route('**/api/v1/content/getbytype?*', async (route) => {
    const response = await route.fetch();
    const settings = (await response.json()) as Array<Record<string, unknown>>;
    const shortened = settings.map((s) => ({
      ...s,
      idleTimeoutMinutes: IDLE_MINUTES,
      idleCountdownSeconds: COUNTDOWN_SECONDS,
    }));
    await route.fulfill({ response, json: shortened });
  });
}

async function signedInIdleReady(page: Page, request: Parameters<typeof signIn>[1]) {
  await shortenIdleTime(page);
  await page.clock.install();
  await page.goto('/login');
  await signIn(page, request, david, { number: david.landline, radio: david.landlineCallRadio });
  await expect(page).toHaveURL(/\/account(\/dashboard)?$/);
}

test.describe('inactivity', () => {
  test.describe.configure({ mode: 'default', timeout: 90_000 });
  test('warns after the idle time, and signs out when the countdown ends', async ({ page, request }) => {
    await signedInIdleReady(page, request);
    await page.clock.runFor(IDLE_MINUTES * 60_000 - 5_000);
    const dialog = page.getByRole('dialog', { name: 'Are you still there?' });
    await expect(dialog).toHaveCount(0);

    await page.clock.runFor(8_000);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(/we will sign you out in \d+ seconds/i);
    await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
    // No empty band under the buttons: the window ends at its padding (20 px) and border.
    const band = await dialog.evaluate((d) => {
      const buttons = d.querySelector('.ui-modal__body')?.lastElementChild?.getBoundingClientRect();
      return buttons ? d.getBoundingClientRect().bottom - buttons.bottom : Infinity;
    });
    expect(band).toBeLessThanOrEqual(26);
    await expectNoSeriousA11yViolations(page);

    await page.clock.runFor(COUNTDOWN_SECONDS * 1000);
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByText('We signed you out because you had not done anything for a while.'),
    ).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('authenticated'))).toBe('0');
    await page.goto('/account/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('staying signed in resets the timer', async ({ page, request }) => {
    await signedInIdleReady(page, request);
    await page.clock.runFor(IDLE_MINUTES * 60_000 + 3_000);
    const dialog = page.getByRole('dialog', { name: 'Are you still there?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay signed in' }).press('Enter');
    await expect(dialog).toHaveCount(0);

    // A full idle period later the customer is still signed in, and only then warned again.
    await page.clock.runFor(IDLE_MINUTES * 60_000 - 10_000);
    await expect(dialog).toHaveCount(0);
    await expect(signOutButton(page)).toBeVisible();
    await page.clock.runFor(15_000);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Sign out now' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
