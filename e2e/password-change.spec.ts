import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { desktop, expectPdfAbout, expectScreenAtEverySize, phone as phoneScreen } from './support/screens';
import { enterCode, signIn, signOut, watchOutbox } from './auth-helpers';

/*
 * Changing the password from the profile, against the real server: Anne is the demo customer whose
 * password the tests change (README), so no other journey is disturbed.
 */
const anne = {
  email: 'anne.porter@example.co.uk',
  password: 'OldForgeWem1957',
  phone: { number: '07700900444', radio: 'Text message to +44 XXXX XXX444' },
};
const newPassword = 'WemMillStreetForge26';
/** Her Direct Debit account (README: one home policy paid monthly). */
const anneAccount = 'BA10000081';

/** A moment as the password page shows it, in UK time: "3rd March 2024 2:05pm". */
function shownAs(time: number): string {
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', ...options }).format(time);
  const day = Number(part({ day: 'numeric' }));
  const suffix = day >= 11 && day <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');
  const [hour, minute] = part({ hour: 'numeric', minute: '2-digit', hourCycle: 'h12' })
    .replace(/\s*[ap]\.?m\.?$/i, '')
    .split(':');
  const period = Number(part({ hour: 'numeric', hourCycle: 'h23' })) < 12 ? 'am' : 'pm';
  return `${day}${suffix} ${part({ month: 'long' })} ${part({ year: 'numeric' })} ${Number(hour)}:${minute}${period}`;
}

test('change the password with a code, sign out, and sign in with the new one', async ({ page, request }) => {
  test.setTimeout(180_000);
  // Her bills asked for while signed out: sign-in first, then that page (spec §4).
  await page.goto('/account/bills-and-payments');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, request, anne, anne.phone);
  await expect(page).toHaveURL(/\/account\/bills-and-payments$/);
  await expect(page.getByRole('heading', { name: `Billing account ${anneAccount}` })).toBeVisible();
  await expectScreenAtEverySize(page);
  // A bill downloaded on a phone: a PDF for her account.
  await page.setViewportSize(phoneScreen);
  await page.reload();
  const bill = page.waitForEvent('download');
  await page
    .getByRole('button', { name: /^View PDF/ })
    .first()
    .click();
  await expectPdfAbout(await bill, anneAccount);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize(desktop);

  await page.goto('/profile/login-security');
  // The password block's own date (the page also lists where the customer is signed in, with times).
  const passwordBlock = page.getByRole('region', { name: 'Password', exact: true });
  await expect(passwordBlock.getByRole('term').filter({ hasText: 'Last updated' })).toBeVisible();
  const lastUpdated = passwordBlock.getByRole('definition').filter({ hasText: /\d{4} \d{1,2}:\d\d[ap]m$/ });
  await expect(lastUpdated).toBeVisible();
  await expectScreenAtEverySize(page);

  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your password' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'Text message to +44 XXXX XXX444' }).check();
  await expectScreenAtEverySize(page);
  const phone = await watchOutbox(request, anne.phone.number);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  const stepTwo = page.getByRole('dialog', { name: 'Enter your code and new password' });
  await expect(stepTwo).toBeVisible();
  await expect(stepTwo.getByRole('textbox', { name: /^Digit \d of 6$/ })).toHaveCount(6);
  await expectScreenAtEverySize(page);

  await enterCode(page, await phone.next());
  await stepTwo.getByLabel('Current password', { exact: true }).fill(anne.password);
  await stepTwo.getByLabel('New password', { exact: true }).fill(newPassword);
  await stepTwo.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  const changedAt = Date.now();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The date on the page is now the change's (give or take the minute it happened in), also after a
  // reload. (The seeded date is when the server first started, which may be that same minute.)
  const changeTimes = [changedAt - 60_000, changedAt, changedAt + 60_000].map(shownAs);
  await expect(lastUpdated).toHaveText(new RegExp(`^(${changeTimes.join('|')})$`));
  const after = await lastUpdated.textContent();
  await expectScreenAtEverySize(page);
  await page.reload();
  await expect(lastUpdated).toHaveText(after ?? '');

  await signOut(page);
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, request, { email: anne.email, password: newPassword }, anne.phone);
  await expect(page).toHaveURL(/\/account\/dashboard$/);
});
