import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { contentPage } from './support/content';
import { expect, test } from './support/fixtures';
import { demo, signIn } from './auth-helpers';

/*
 * Issue 23, as a customer with data meets the data pages on the real server and the seeded portfolio
 * (README, "Demo sign-in"): every signed-in item of the main menu shows the customer's data, never an
 * error or an empty page ("Your policies" lists the policies); "Show more" moves focus to what it added
 * and says how many; a policy's actions are offered and worded by its status and flags.
 */

const helen = {
  email: 'helen.dawson@example.co.uk',
  password: 'ShropshireHills1968',
  phone: { number: '07700900333', radio: 'Text message to +44 XXXX XXX333' },
};
const david = { ...demo.david, phone: { number: demo.david.landline, radio: demo.david.landlineCallRadio } };

interface NavItem {
  title: string;
  url: string;
  group?: string;
  requiresAuthentication?: boolean;
  children?: NavItem[];
}

/** The main menu's signed-in items from content (navigation.json), children included. */
function signedInNavItems(): NavItem[] {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'content', 'navigation.json');
  const nav = JSON.parse(readFileSync(file, 'utf8')) as { header: NavItem[] };
  return nav.header
    .filter((item) => item.group === 'main' && item.requiresAuthentication)
    .flatMap((item) => [item, ...(item.children ?? [])]);
}

/** Texts of the not-found, error and unknown pages, and of a policy that is not found. */
const errorTexts =
  /cannot find that policy|Page not found|Something went wrong|This page cannot be shown|technical problem/i;

/** Waits until the page's own loading texts have gone. */
async function loaded(page: Page) {
  await expect(
    page
      .locator('main')
      .getByRole('status')
      .filter({ hasText: /^Loading/ }),
  ).toHaveCount(0);
}

/** A polite live region (aria-live) that says `text`. */
const announcement = (page: Page, text: string | RegExp) =>
  page.locator('[aria-live="polite"]').filter({ hasText: text });

test.describe('data pages (issue 23)', () => {
  test.describe.configure({ timeout: 180_000 });

  test('Helen: every menu item shows her data; "Your policies" lists them; load more moves focus to what it added', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, request, helen, helen.phone);
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    const splash = page.getByRole('dialog', { name: 'New: read your renewal documents online' });
    await splash.getByRole('button', { name: 'Not now' }).click();
    await expect(splash).toBeHidden();

    // "Your policies" from the main menu: her policies by group, each opening its overview.
    await page.locator('#main-menu').getByRole('link', { name: 'Your policies', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/policies\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your policies' })).toBeVisible();
    for (const group of ['Active', 'Upcoming', 'Expired'])
      await expect(page.getByRole('heading', { level: 2, name: group })).toBeVisible();
    const expired = page.getByRole('region', { name: 'Expired' });
    await expect(expired.getByRole('link')).toHaveCount(2);
    await expect(page.getByRole('region', { name: 'Active' }).getByRole('link')).toHaveCount(6);
    await expect(page.getByText(errorTexts)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: /708X1000001/ }).click();
    await expect(page).toHaveURL(/\/account\/policies\/?\?id=708X1000001$/);
    await expect(page.getByRole('region', { name: 'Policy details' })).toBeVisible();

    // Every signed-in menu item from content: a heading, some of her data, no error text.
    for (const item of signedInNavItems()) {
      await page.goto(item.url);
      await expect(page, item.title).toHaveURL(new RegExp(`${item.url.replace(/\//g, '\\/')}\\/?$`));
      await expect(page.getByRole('heading', { level: 1 }), item.title).toBeVisible();
      await loaded(page);
      await expect(page.getByText(errorTexts), item.title).toHaveCount(0);
      const shown = page.locator('main').locator('section, ul, dl, form, fieldset, .policy-list');
      await expect(shown.first(), `${item.title} shows something beyond its heading`).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    }

    // Dashboard: "Show more policies" moves focus to the fourth card and says three were added.
    await page.goto('/account/dashboard');
    const cards = page.getByRole('region', { name: 'Your policies' }).getByRole('listitem');
    await expect(cards).toHaveCount(3);
    await page.getByRole('button', { name: 'Show more policies' }).focus();
    await page.keyboard.press('Enter');
    await expect(cards).toHaveCount(6);
    await expect(cards.nth(3)).toBeFocused();
    await expect(announcement(page, 'More policies shown: 3')).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);

    // Bills: "Show more bills" moves focus to a bill it added, not to the page body.
    await page.goto('/account/bills-and-payments');
    const rows = page.locator('.document-row');
    await expect(rows).toHaveCount(10);
    const before = await rows.locator('.document-row__name').allTextContents();
    await page.getByRole('button', { name: 'Show more bills' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBeGreaterThan(10);
    const focused = page.locator('li.document-row:focus');
    await expect(focused).toHaveCount(1);
    expect(before).not.toContain(await focused.locator('.document-row__name').textContent());
    const added = (await rows.count()) - before.length;
    await expect(announcement(page, `More bills shown: ${added}`)).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
  });

  test('David: an expired policy offers no change; a migration renewal without online changes does not promise them', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, request, david, david.phone);
    // His first sign-in asks for his marketing choice first.
    if (/\/account\/?$/.test(new URL(page.url()).pathname)) {
      await page.getByRole('radio', { name: 'No, thank you' }).check();
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page).toHaveURL(/\/account\/dashboard$/);
    }
    const overview = contentPage('account-policies.json');
    expect(overview.url).toBe('/account/policies');

    // Expired: "This policy has ended", no change online, no request, no help about changing it.
    await page.goto('/account/policies?id=204X7654300');
    await expect(page.getByRole('heading', { name: 'This policy has ended' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Make a change online/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Request a change/ })).toHaveCount(0);
    await expect(page.getByText(/changes online/)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Changing your policy' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // The migration renewal (allowMTA false): no promise of online changes, a request instead.
    await page.goto('/account/policies?id=204X7654321');
    await expect(page.getByText(/This policy cannot be changed online/)).toBeVisible();
    await expect(page.getByText(/You can make some changes online/)).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Make a change online/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /^Request a change/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // His fine art policy in force (allowMTA true) still offers a change online.
    await page.goto('/account/policies?id=204P76543210');
    await expect(page.getByText(/You can make some changes online/)).toBeVisible();
    await expect(page.getByRole('link', { name: /^Make a change online/ })).toBeVisible();
  });
});
