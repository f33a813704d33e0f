import type { Page } from '@playwright/test';
import { demo } from './auth-helpers';
import { expect, test } from './support/fixtures';
import { expectConsoleScreen, signInToConsole, staff } from './support/staff-console';

/*
 * The staff console (issue 41 points 3-5 and 7, decision 038): staff sign in through the stand-in workforce
 * provider with a code from the outbox, find Margaret by her policy number with a reason and open her
 * record; a senior agent's action form and an auditor's trail (the actions themselves are taken in
 * staff-actions.spec.ts). Every console screen is checked with axe at a desktop's width and at 320 px,
 * where nothing may be wider than the screen (the audit trail's table scrolls in its own region). The
 * agent's search is made by keyboard alone.
 */

/** Finds Margaret by her policy number (the form filled by keyboard alone) with a reason. */
async function findMargaretByKeyboard(page: Page, reason: string) {
  await page.getByRole('radio', { name: 'Customer id' }).focus();
  // The radios are one tab stop; the arrow keys move between them (and choose).
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: 'Policy number' })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Policy number' })).toBeFocused();
  await page.keyboard.type(demo.margaret.policyNumber);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Reason' })).toBeFocused();
  await page.keyboard.type(reason);
  await page.keyboard.press('Enter');
  const found = page.getByRole('heading', { level: 2, name: '1 customer found' });
  await expect(found).toBeFocused();
}

test('an agent signs in, finds Margaret by policy number with a reason, and opens her record', async ({
  page,
  request,
}) => {
  await signInToConsole(page, request, staff.agent);
  await expect(page).toHaveTitle('Find a customer – Staff console – Meridian Mutual');
  await expect(page.getByRole('banner')).toContainText('Agent');
  await expectConsoleScreen(page);

  // Sent empty: the error summary, focused, and each field's message.
  await page.getByRole('button', { name: 'Search' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Choose how to find the customer');
  await expect(summary).toContainText('Enter the reason: a ticket or call reference');
  await expectConsoleScreen(page);

  await findMargaretByKeyboard(page, 'CALL-E2E-0041');
  const result = page.getByRole('listitem').filter({ hasText: 'Margaret' });
  await expect(result).toContainText('Registered');
  await expectConsoleScreen(page);

  // To her record by keyboard: the link, then Enter.
  const open = result.getByRole('link', { name: /^Open record for .*Margaret Thompson$/ });
  await open.focus();
  await page.keyboard.press('Enter');
  const name = page.getByRole('heading', { level: 1, name: /Margaret Thompson/ });
  await expect(name).toBeFocused();
  await expect(page).toHaveURL(/\/staff\/customers\/C1000001$/);
  await expect(page.getByText('Opened for: CALL-E2E-0041')).toBeVisible();
  const glance = page.getByRole('region', { name: 'At a glance' });
  await expect(glance).toContainText('Online account');
  await expect(glance).toContainText('Sign-in');
  await expect(page.getByRole('region', { name: 'Policies' })).toContainText(demo.margaret.policyNumber);
  await expect(page.getByRole('region', { name: 'Account activity' })).toBeVisible();
  // An agent is offered no senior agent's action.
  const actions = page.getByRole('region', { name: 'Help this customer' });
  await expect(actions.getByRole('button', { name: 'Remove second factors' })).toHaveCount(0);
  await expect(actions.getByRole('button', { name: 'Change email address' })).toHaveCount(0);
  await expectConsoleScreen(page);

  // Back to the search, as it was; then sign out.
  await page.getByRole('link', { name: 'Back to Find a customer' }).click();
  await expect(page.getByRole('heading', { level: 2, name: '1 customer found' })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You have signed out' })).toBeFocused();
  await expect(page).toHaveURL(/\/staff\/signed-out$/);
  await expectConsoleScreen(page);
  // The session has ended on the server (the workforce provider's own sign-in is the provider's).
  const session = await page.request.get('/staff/api/session');
  expect(session.status()).toBe(401);
});

test("a senior agent's action asks for the identity check and a reason, and says what is missing", async ({
  page,
  request,
}) => {
  // A record's address opened without a session: signed in, the browser comes back to it, and the
  // console asks why it is being opened.
  await signInToConsole(page, request, staff.senior, '/staff/customers/C1000001');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Why are you opening this record?' }),
  ).toBeVisible();
  await expectConsoleScreen(page);
  await page.getByRole('textbox', { name: 'Reason' }).fill('CALL-E2E-0042');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Margaret Thompson/ })).toBeFocused();

  const actions = page.getByRole('region', { name: 'Help this customer' });
  const change = actions.getByRole('button', { name: 'Change email address' });
  await change.click();
  const panel = page.getByRole('region', { name: 'Change their email address' });
  await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
  await expect(panel.getByRole('textbox', { name: 'Reason' })).toHaveValue('CALL-E2E-0042');
  await panel.getByRole('button', { name: 'Change email address' }).click();
  const summary = panel.getByRole('alert');
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Enter the new email address');
  await expect(summary).toContainText('Confirm you have checked who you are speaking to');
  await expectConsoleScreen(page);
  // Nothing was sent: cancelled, back on its button.
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(change).toBeFocused();
  await expect(panel).toHaveCount(0);
});

test('an auditor finds Margaret and reads her audit trail, newest first, with nothing to change', async ({
  page,
  request,
}) => {
  await signInToConsole(page, request, staff.auditor);
  await page.getByRole('radio', { name: 'Customer id' }).check();
  await page.getByRole('textbox', { name: 'Customer id' }).fill('C1000001');
  await page.getByRole('textbox', { name: 'Reason' }).fill('AUDIT-E2E-2026');
  await page.getByRole('button', { name: 'Search' }).click();
  const result = page.getByRole('listitem').filter({ hasText: 'Margaret' });
  await expect(result.getByRole('link', { name: /^Open record/ })).toHaveCount(0);
  await result.getByRole('link', { name: /^Audit trail for / }).click();

  await expect(
    page.getByRole('heading', { level: 1, name: /^Audit trail of .*Margaret Thompson$/ }),
  ).toBeFocused();
  const table = page.getByRole('table', { name: 'What was recorded about this customer' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const times = await table
    .locator('tbody time')
    .evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute('datetime') ?? '')));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  await expect(page.getByRole('region', { name: 'Help this customer' })).toHaveCount(0);
  await expectConsoleScreen(page);
});
