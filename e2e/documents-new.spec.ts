import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { demo, signIn, toDashboardPastMarketingStep } from './auth-helpers';

/*
 * "New since your last visit" (issue 40 point 5): a document the customer has not opened is marked New;
 * opening it clears the mark at once, and on the customer's other devices. The demo data has every
 * customer's newest bill of each account and the documents of each policy's newest pack not yet opened.
 * Eleanor Vaughan's bills are used here: no other journey signs her in.
 */
const { eleanorVaughan } = demo;
const phone = { number: eleanorVaughan.mobile, radio: eleanorVaughan.textRadio };

async function billsPage(page: Page, request: APIRequestContext, onDashboard?: () => Promise<void>) {
  await page.goto('/login');
  await signIn(page, request, eleanorVaughan, phone);
  await toDashboardPastMarketingStep(page);
  await onDashboard?.();
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: /^Bills and payments/ })
    .click();
  await expect(page).toHaveURL(/\/account\/bills-and-payments$/);
  await expect(page.getByRole('heading', { name: /^Billing account BA/ }).first()).toBeVisible();
}

async function newContext(browser: Browser) {
  return browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London' });
}

test('a bill not opened yet is marked New until it is opened, on every device', async ({
  page,
  request,
  browser,
}) => {
  await billsPage(page, request);
  const marked = page.locator('.document-row').filter({ has: page.locator('.tag', { hasText: 'New' }) });
  await expect(marked.first()).toBeVisible();
  const before = await marked.count();
  expect(before).toBeGreaterThan(0);
  // The menu item says how many, in its name.
  const billsItem = (tab: Page, count: number) =>
    tab.getByRole('navigation', { name: 'Main menu' }).getByRole('link', {
      name: count > 0 ? `Bills and payments ${count} new` : 'Bills and payments',
      exact: true,
    });
  await expect(billsItem(page, before)).toBeVisible();
  // Screen readers hear it with the document's button too.
  const button = marked.first().getByRole('button', { name: /^View PDF .+ \(New\)$/ });
  const name = (await marked.first().locator('.document-row__name').textContent())!
    .replace(/^New\s*/, '')
    .trim();
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent('download');
  await button.click();
  await download;
  await expect(marked).toHaveCount(before - 1);
  // The menu says so at once.
  await expect(billsItem(page, before - 1)).toBeVisible();

  // Another browser of hers: that bill is no longer New, the others still are.
  const other = await newContext(browser);
  try {
    const second = await other.newPage();
    await billsPage(second, request, async () => {
      // The dashboard's policy cards link to a policy's documents not opened yet.
      const policies = second.getByRole('region', { name: 'Your policies' });
      await expect(
        policies.getByRole('link', { name: /^New \d+ new documents? .+ \d{3}[A-Z]\w+$/ }).first(),
      ).toBeVisible();
      await expectNoSeriousA11yViolations(second);
    });
    const row = second.locator('.document-row').filter({ hasText: name }).first();
    await expect(row.getByRole('button', { name: /^View PDF / })).toBeVisible();
    await expect(row.locator('.tag')).toHaveCount(0);
    await expect(second.locator('.document-row .tag', { hasText: 'New' })).toHaveCount(before - 1);
    await expect(billsItem(second, before - 1)).toBeVisible();
  } finally {
    await other.close();
  }
});
