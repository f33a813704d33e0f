import { expect, test } from './support/fixtures';
import { demo, logoutModal, signOutButton, tabTo, watchOutbox } from './auth-helpers';

/*
 * The whole sign-in with the keyboard only: Tab to move, typing, arrows for the radios, Enter to submit.
 * No clicks anywhere. Margaret gets her code by a voice call to her mobile (six boxes).
 */

const { margaret } = demo;

test('the whole sign-in journey with the keyboard only', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto('/login');
  const phone = await watchOutbox(request, margaret.mobile);

  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeVisible();

  const email = page.getByRole('textbox', { name: 'Email address' });
  await tabTo(page, email);
  await page.keyboard.type(margaret.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(margaret.password);
  await tabTo(page, page.getByRole('button', { name: 'Sign in', exact: true }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/login\/verify$/);
  const text = page.getByRole('radio', { name: margaret.textRadio, exact: true });
  const call = page.getByRole('radio', { name: margaret.mobileCallRadio, exact: true });
  await tabTo(page, text);
  // Arrow keys move between radios and select as they go: text, call to the mobile, call to the landline.
  await page.keyboard.press('ArrowDown');
  await expect(call).toBeFocused();
  await expect(call).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Send code' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
  const first = page.getByRole('textbox', { name: 'Digit 1 of 6' });
  const wrongCode = page.getByRole('alert').filter({ hasText: 'That code is not right' });
  // Another journey may have had a code sent to the same phone at the same moment: if the code read was
  // not ours, the page says so and the next new message is used, still by keyboard.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await tabTo(page, first);
    await page.keyboard.type(await phone.next());
    await expect(page.getByRole('textbox', { name: 'Digit 6 of 6' })).toBeFocused();
    await tabTo(page, page.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    const outcome = await Promise.race([
      page.waitForURL(/\/account\//, { timeout: 20_000 }).then(() => 'signed-in'),
      wrongCode.waitFor({ timeout: 20_000 }).then(() => 'wrong'),
    ]);
    if (outcome === 'signed-in') break;
  }

  await expect(page).toHaveURL(/\/account\/dashboard$/, { timeout: 20_000 });
  const signOut = signOutButton(page);
  await tabTo(page, signOut, 80);
  await page.keyboard.press('Enter');
  // The logout modal asks first; its confirm button is reached with the keyboard too.
  await expect(logoutModal(page)).toBeFocused();
  const confirm = logoutModal(page).getByRole('button', { name: 'Yes, sign out' });
  await tabTo(page, confirm, 10);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
});
