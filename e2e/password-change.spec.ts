import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { enterCode, signIn, signOutButton, watchOutbox } from './auth-helpers';

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

test('change the password with a code, sign out, and sign in with the new one', async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await signIn(page, request, anne, anne.phone);
  await page.goto('/profile/login-security');
  await expect(page.getByRole('term').filter({ hasText: 'Last updated' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /\d{4} \d{1,2}:\d\d[ap]m$/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your password' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'Text message to +44 XXXX XXX444' }).check();
  await expectNoSeriousA11yViolations(page);
  const phone = await watchOutbox(request, anne.phone.number);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  const stepTwo = page.getByRole('dialog', { name: 'Enter your code and new password' });
  await expect(stepTwo).toBeVisible();
  await expect(stepTwo.getByRole('textbox', { name: /^Digit \d of 6$/ })).toHaveCount(6);

  await enterCode(page, await phone.next());
  await stepTwo.getByLabel('Current password', { exact: true }).fill(anne.password);
  await stepTwo.getByLabel('New password', { exact: true }).fill(newPassword);
  await stepTwo.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  await signOutButton(page).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, request, { email: anne.email, password: newPassword }, anne.phone);
  await expect(page).toHaveURL(/\/account\/dashboard$/);
});
