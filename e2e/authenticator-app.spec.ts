import { readFile } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';
import {
  completeChallenge,
  enterCode,
  enterCredentials,
  signOut,
  toDashboardPastMarketingStep,
  watchOutbox,
} from './auth-helpers';
import type { Page } from '@playwright/test';

/*
 * Issue 25: an authenticator app and backup codes, set up from the profile and used to sign in, against the
 * real server. Rosemary is the demo customer these journeys change (README), so nobody else is disturbed.
 * The app's codes are computed here from the key the page shows, as the customer's app would. The
 * journey ends with her password changed (with an app code) on this run's fresh database.
 */
const rosemary = {
  email: 'rosemary.clarke@example.co.uk',
  password: 'BrookCottageClun49',
  mobile: '07700900666',
  textRadio: 'Text message to +44 XXXX XXX666',
};

const STEP_MS = 30_000;

/** The customer's app: codes for the key, never one of a time step already used (the server refuses replays). */
function authenticatorApp(key: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')) });
  let lastStep = -1;
  return {
    async code(page: Page): Promise<string> {
      const now = Math.floor(Date.now() / STEP_MS);
      // This step's code, or when it was used already the next step's: the server allows one step of
      // drift, as for a phone whose clock runs up to 30 seconds fast. Only a third code within one step
      // waits for the next.
      const step = now > lastStep ? now : lastStep + 1;
      if (step > now + 1) await page.waitForTimeout((step - 1) * STEP_MS - Date.now() + 250);
      lastStep = step;
      return totp.generate({ timestamp: step * STEP_MS });
    },
    wrongCode(): string {
      const right = totp.generate();
      return right === '123456' ? '654321' : '123456';
    },
  };
}

/** Signs out from the top of the page (scrolled down, the header slides away until scrolled back up). */
async function signOutFromTop(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await signOut(page);
  // Signed out once the sign-in page shows: going elsewhere sooner could cut the sign-out short.
  await expect(page.getByRole('textbox', { name: 'Email address' })).toBeVisible();
}

/** Email and password, then the verify page with its choice of methods. */
async function toChooser(page: Page) {
  await page.goto('/login');
  await enterCredentials(page, rosemary.email, rosemary.password);
  await expect(page).toHaveURL(/\/login\/verify$/);
  return page.getByRole('group', { name: 'How would you like to get your code?' });
}

test('set up an authenticator app and backup codes, sign in with each, and remove the app', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);

  // Signed in by text message, as before anything is set up.
  const phone = await watchOutbox(request, rosemary.mobile);
  const before = await toChooser(page);
  await expect(before.getByRole('radio', { name: 'Authenticator app' })).toHaveCount(0);
  await before.getByRole('radio', { name: rosemary.textRadio }).check();
  await page.getByRole('button', { name: 'Send code' }).click();
  await completeChallenge(page, phone);
  await toDashboardPastMarketingStep(page);

  // The profile's sign-in and security page, named for what it holds.
  await page.goto('/profile/login-security');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in and security' })).toBeVisible();
  const appBlock = page.getByRole('region', { name: 'Authenticator app' });
  await expect(appBlock.getByText('Not set up')).toBeVisible();
  await expectScreenAtEverySize(page);

  // Set up: a QR code drawn by the page, the key as text for typing, then a first code.
  await appBlock.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(appBlock.getByRole('heading', { name: 'Set up your authenticator app' })).toBeFocused();
  await expect(appBlock.getByRole('img', { name: /^QR code for your authenticator app/ })).toBeVisible();
  const shownKey = (await appBlock.locator('code.totp-key').textContent()) ?? '';
  expect(shownKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const app = authenticatorApp(shownKey);
  await expectScreenAtEverySize(page);

  const codeField = appBlock.getByRole('textbox', { name: 'Code from your app' });
  await codeField.fill(app.wrongCode());
  await appBlock.getByRole('button', { name: 'Confirm and finish' }).click();
  await expect(appBlock.getByText('That code is not right.')).toBeVisible();
  await expect(codeField).toHaveValue(app.wrongCode());
  await expect(codeField).toHaveAttribute('aria-invalid', 'true');
  await expectScreenAtEverySize(page);
  await codeField.fill(await app.code(page));
  await appBlock.getByRole('button', { name: 'Confirm and finish' }).click();
  await expect(appBlock.getByText('Your authenticator app is set up.')).toBeVisible();
  await expect(appBlock.getByText(/^Set up on \d{1,2} \w+ \d{4}$/)).toBeVisible();
  await expectScreenAtEverySize(page);

  // Sign in with the app: it is offered first now (the method used last), and sends nothing.
  await signOutFromTop(page);
  const chooser = await toChooser(page);
  await expect(chooser.getByRole('radio').first()).toHaveAccessibleName('Authenticator app');
  await expect(chooser.getByRole('radio', { name: rosemary.textRadio })).toBeVisible();
  await expectScreenAtEverySize(page);
  await chooser.getByRole('radio', { name: 'Authenticator app' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Enter the code from your authenticator app' }),
  ).toBeFocused();
  await expect(page).toHaveURL(/\/login\/verify$/);
  await expectScreenAtEverySize(page);
  await page.getByRole('textbox', { name: 'Code from your app' }).fill(app.wrongCode());
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That code is not right' })).toBeFocused();
  await expectScreenAtEverySize(page);
  await page.getByRole('textbox', { name: 'Code from your app' }).fill(await app.code(page));
  await page.getByRole('button', { name: 'Continue' }).click();
  await toDashboardPastMarketingStep(page);

  // Backup codes: ten, shown once, with print and download.
  await page.goto('/profile/login-security');
  const codesBlock = page.getByRole('region', { name: 'Backup codes' });
  await expect(codesBlock.getByText('You do not have any backup codes.')).toBeVisible();
  await codesBlock.getByRole('button', { name: 'Create backup codes' }).click();
  await expect(codesBlock.getByRole('heading', { name: 'Your backup codes' })).toBeFocused();
  const list = codesBlock.getByRole('list', { name: 'Your 10 backup codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await expect(codesBlock.getByRole('button', { name: 'Print the codes' })).toBeVisible();
  const download = page.waitForEvent('download');
  await codesBlock.getByRole('button', { name: 'Download the codes' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('backup-codes.txt');
  const text = await readFile((await file.path())!, 'utf8');
  expect(text).toMatch(
    /^Backup codes for signing in to your insurance account, created on \d{1,2} \w+ \d{4}\./,
  );
  for (const code of codes) expect(text).toContain(code);
  await expectScreenAtEverySize(page);
  // Printed, only the heading and the codes show.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print the codes' })).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Your backup codes' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your 10 backup codes' }).getByRole('listitem')).toHaveCount(
    10,
  );
  await page.emulateMedia({ media: 'screen' });
  await codesBlock.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(codesBlock.getByText('You have 10 unused backup codes.')).toBeVisible();

  // Sign in with a backup code.
  await signOutFromTop(page);
  const withCodes = await toChooser(page);
  await withCodes.getByRole('radio', { name: 'A backup code (10 left)' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Enter a backup code' })).toBeFocused();
  await expectScreenAtEverySize(page);
  // Typed as a customer might: lower case, no dash.
  await page.getByRole('textbox', { name: 'Backup code' }).fill(codes[0]!.toLowerCase().replace('-', ''));
  await page.getByRole('button', { name: 'Continue' }).click();
  await toDashboardPastMarketingStep(page);

  // The same code is refused the second time; another works.
  await signOutFromTop(page);
  const again = await toChooser(page);
  await expect(again.getByRole('radio').first()).toHaveAccessibleName('A backup code (9 left)');
  await again.getByRole('radio', { name: 'A backup code (9 left)' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  const codeBox = page.getByRole('textbox', { name: 'Backup code' });
  await codeBox.fill(codes[0]!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That backup code is not right or has been used' }),
  ).toBeVisible();
  await expect(codeBox).toHaveValue(codes[0]!);
  await expectScreenAtEverySize(page);
  await codeBox.fill(codes[1]!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await toDashboardPastMarketingStep(page);

  // The password change takes the app's code instead of a text or call: nothing is sent.
  await page.goto('/profile/login-security');
  await expect(appBlock.getByText(/^Set up on /)).toBeVisible();
  await page.getByRole('button', { name: 'Change password' }).click();
  const stepOne = page.getByRole('dialog', { name: 'Change your password' });
  await stepOne.getByRole('radio', { name: 'Use your authenticator app' }).check();
  // Step one is the password journey's screen with one more choice (scanned there); step two's words
  // and buttons are the app's own.
  await stepOne.getByRole('button', { name: 'Continue' }).click();
  const stepTwo = page.getByRole('dialog', { name: 'Enter your code and new password' });
  await expect(stepTwo.getByText(/Open your authenticator app and enter the 6-digit code/)).toBeVisible();
  await expect(stepTwo.getByRole('button', { name: 'Send a new code' })).toHaveCount(0);
  await expectScreenAtEverySize(page);
  await enterCode(page, await app.code(page));
  await stepTwo.getByLabel('Current password', { exact: true }).fill(rosemary.password);
  await stepTwo.getByLabel('New password', { exact: true }).fill('ClunCastleBrook2026');
  await stepTwo.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  // Remove the app, after saying so.
  await appBlock.getByRole('button', { name: 'Remove the app' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove the authenticator app?' });
  await expect(confirm).toBeVisible();
  await expectScreenAtEverySize(page);
  await confirm.getByRole('button', { name: 'Remove the app' }).click();
  await expect(appBlock.getByText('Your authenticator app has been removed.')).toBeVisible();
  await expect(appBlock.getByText('Not set up')).toBeVisible();
  await expectScreenAtEverySize(page);
});
