import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectConsoleScreen, signInToConsole, staff } from './support/staff-console';

/*
 * Editors and operators change the live portal without a deploy (issue 42): an editor changes the service
 * alert's message and submits it; a publisher previews it at a phone's width and publishes it; a customer's
 * sign-in page shows it within 5 seconds; the publisher rolls it back and it is gone as fast; an operator
 * turns maintenance mode on and the customer sees the maintenance page, then off. Every console screen is
 * checked with axe at a desktop's width and at 320 px.
 *
 * The journey changes what every customer sees, so it runs in a project of its own after the others
 * (playwright.config.ts). The portal here is one instance on the embedded database; a second instance on
 * a shared PostgreSQL database is shown by apps/server/src/modules/staff/content.test.ts and measured by
 * `npm run bench:content-live`. On its own: `npx playwright test -c e2e/playwright.config.ts
 * e2e/staff-content.spec.ts --project site-wide --no-deps` (without --no-deps every other journey runs first).
 */

const MESSAGE = 'Our phone lines are down this morning. You can still make a claim online.';

/** A browser of its own (its own cookies), from an address next to the journey's own. */
async function newPage(browser: Browser, clientAddress: string, n: number): Promise<Page> {
  const address = clientAddress.replace(
    /\.(\d+)$/,
    (_, last: string) => `.${((Number(last) + n) % 254) + 1}`,
  );
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': address } });
  return context.newPage();
}

/** The customer's sign-in page, reloaded until it shows what is expected (a publish reaches it in seconds). */
async function customerSees(customer: Page, check: () => Promise<void>) {
  await expect(async () => {
    await customer.goto('/login');
    await check();
  }).toPass({ timeout: 5_000, intervals: [250, 500, 1000] });
}

test('an editor changes the service alert, a publisher previews and publishes it, rolls it back, and an operator switches maintenance on and off', async ({
  page,
  browser,
  request,
  clientAddress,
}) => {
  test.setTimeout(120_000);
  const customer = await newPage(browser, clientAddress, 1);
  const alertRegion = customer.getByRole('region', { name: 'Planned maintenance' });
  await customer.goto('/login');
  await expect(customer.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(alertRegion).toHaveCount(0);

  // The editor: the content list, the service alert's form, the new message, submitted.
  await signInToConsole(page, request, staff.editor, '/staff/content');
  await expect(page).toHaveTitle('Site content – Staff console – Meridian Mutual');
  await expectConsoleScreen(page);
  await page.getByRole('link', { name: 'Service alert' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Service alert' })).toBeFocused();
  await page.getByRole('checkbox', { name: 'Visible' }).check();
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(`<p><script>alert(1)</script>${MESSAGE}</p>`);
  await page.getByRole('button', { name: 'Save and submit for publishing' }).click();
  // Script is refused, the field named, before anything is saved.
  const problem = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(problem).toBeFocused();
  await expect(problem).toContainText('message: Rich text: tag <script> is not allowed');
  await message.fill(`<p>${MESSAGE}</p>`);
  await page.getByRole('button', { name: 'Save and submit for publishing' }).click();
  await expect(page.getByText('Your change is submitted for publishing.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'What the draft changes' })).toContainText(MESSAGE);
  // No publishing for an editor.
  await expect(page.getByRole('button', { name: 'Publish this change' })).toHaveCount(0);
  await expectConsoleScreen(page);

  // The publisher: the preview at a phone's width, then publish.
  const publisher = await newPage(browser, clientAddress, 2);
  await signInToConsole(publisher, request, staff.publisher, '/staff/content/service-alert');
  await expect(publisher.getByText('Submitted for publishing by Sam Carter')).toBeVisible();
  await publisher.getByRole('button', { name: 'Preview at phone width' }).click();
  const frame = publisher.frameLocator('iframe[title="Preview of /login at phone width"]');
  await expect(frame.getByRole('region', { name: 'Planned maintenance' })).toContainText(MESSAGE);
  await expect(publisher.locator('iframe.staff-preview')).toHaveAttribute('width', '390');
  await expectConsoleScreen(publisher);
  // Customers do not see it yet.
  await customer.goto('/login');
  await expect(customer.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(alertRegion).toHaveCount(0);

  await publisher.getByLabel('Reason (optional)').fill('INC-0042 phone lines');
  await publisher.getByRole('button', { name: 'Publish this change' }).click();
  await expect(publisher.getByText(/Published as version 2\./)).toBeVisible();
  await customerSees(customer, () => expect(alertRegion).toContainText(MESSAGE, { timeout: 1000 }));

  // The history says who and what; rolling back publishes version 1 again.
  await expect(publisher.getByRole('table', { name: 'What changed: Version 2' })).toContainText(MESSAGE);
  await publisher.getByRole('button', { name: 'Roll back to version 1' }).click();
  await expect(publisher.getByText('Version 1 is published again, as version 3.')).toBeVisible();
  await customerSees(customer, async () => {
    await expect(customer.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 1000 });
    await expect(alertRegion).toHaveCount(0);
  });

  // The operator: maintenance mode on, with a reason; the customer sees the maintenance page; then off.
  const operator = await newPage(browser, clientAddress, 3);
  await signInToConsole(operator, request, staff.operator, '/staff/operations');
  await expect(operator.getByText('Maintenance mode is off.')).toBeVisible();
  await expectConsoleScreen(operator);
  await operator.getByRole('button', { name: 'Turn maintenance mode on' }).click();
  await expect(operator.getByText('reason: Give a reason: an incident or change reference')).toBeVisible();
  await operator.locator('#maintenance-reason').fill('CHG-0042 database upgrade');
  await operator.getByRole('button', { name: 'Turn maintenance mode on' }).click();
  await expect(
    operator.getByText('Maintenance mode is on: customers see the maintenance page.'),
  ).toBeVisible();
  try {
    await customerSees(customer, () =>
      expect(
        customer.getByRole('heading', { level: 1, name: 'Sorry, the service is unavailable' }),
      ).toBeVisible({
        timeout: 1000,
      }),
    );
  } finally {
    await operator.locator('#maintenance-reason').fill('CHG-0042 done');
    await operator.getByRole('button', { name: 'Turn maintenance mode off' }).click();
  }
  await expect(operator.getByText('Maintenance mode is off.')).toBeVisible();
  await customerSees(customer, () =>
    expect(
      customer.getByRole('heading', { level: 1, name: 'Sorry, the service is unavailable' }),
    ).toHaveCount(0, {
      timeout: 1000,
    }),
  );
  await expect(customer.getByLabel('Email address')).toBeVisible();
});
