import { signIn, tabTo, toDashboardPastMarketingStep } from './auth-helpers';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';

/*
 * "Where you're signed in" (issue 26 point 3): Fiona signs in from three browsers (contexts, as a laptop,
 * a phone and a tablet would be), sees all three listed on the sign-in and security page with this device
 * marked, signs one other out with its own button, then every other with the keyboard alone. Each other
 * browser's next data call then lands on the sign-in page. Fiona is this journey's own demo customer (README, "Demo sign-in"). The screen is checked
 * at a phone's width and a desktop's (axe).
 */

const fiona = {
  email: 'fiona.maclean@example.co.uk',
  password: 'RowanLodgeOban58',
  phone: { number: '07700900888', radio: 'Text message to +44 XXXX XXX888' },
};

test('Fiona sees where she is signed in, signs one browser out, then every other by keyboard', async ({
  page,
  browser,
  request,
}) => {
  // Three sign-ins through the UI, each with its code: 30 to 55 s alone, over the 60 s default when the
  // whole suite shares two cores (as the other journeys with several sign-ins allow for).
  test.setTimeout(180_000);
  const other = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London' });
  const third = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London' });
  const elsewhere = await other.newPage();
  const tablet = await third.newPage();
  try {
    for (const browserPage of [tablet, elsewhere]) {
      await browserPage.goto('/login');
      await signIn(browserPage, request, fiona, fiona.phone);
      await toDashboardPastMarketingStep(browserPage);
    }

    await page.goto('/login');
    await signIn(page, request, fiona, fiona.phone);
    await toDashboardPastMarketingStep(page);

    await page.goto('/profile/login-security');
    const block = page.getByRole('region', { name: "Where you're signed in" });
    const sessions = block.getByRole('listitem');
    await expect(sessions).toHaveCount(3);
    // This device comes first and is marked; only the others have a sign-out button.
    await expect(sessions.first().getByText('This device')).toBeVisible();
    await expect(sessions.first().getByRole('button')).toHaveCount(0);
    await expect(sessions.nth(1).getByText('This device')).toHaveCount(0);
    await expect(block.getByText('Just now').first()).toBeVisible();
    await expectScreenAtEverySize(page);

    // One session signed out with its own button (the newest other sign-in, listed next).
    await sessions
      .nth(1)
      .getByRole('button', { name: /^Sign out .+, signed in / })
      .click();
    await expect(block.getByText(/has been signed out\.$/)).toBeVisible();
    await expect(sessions).toHaveCount(2);

    // Keyboard only: Tab to "Sign out of every other device" and press Enter.
    await tabTo(page, block.getByRole('button', { name: 'Sign out of every other device' }));
    await page.keyboard.press('Enter');
    // The outcome is announced where the focus now is (the button went with the other sessions).
    await expect(page.locator('[aria-live="polite"]:focus')).toContainText(
      'You have been signed out of every other device.',
    );
    await expect(sessions).toHaveCount(1);
    await expect(block.getByText('You are not signed in anywhere else.')).toBeVisible();

    // Each other browser's next data call is refused: it lands on the sign-in page, which says it was
    // signed out from elsewhere, not for being idle (issue 38).
    for (const browserPage of [tablet, elsewhere]) {
      await browserPage.goto('/profile/login-security');
      await expect(browserPage).toHaveURL(/\/login(\?|$)/);
      await expect(browserPage.getByRole('textbox', { name: 'Email address' })).toBeVisible();
      await expect(browserPage.getByText('You have been signed out on this device.')).toBeVisible();
      await expect(browserPage.getByText(/had not done anything for a while/)).toHaveCount(0);
    }

    // This browser is still signed in.
    await page.reload();
    await expect(block.getByRole('listitem')).toHaveCount(1);
  } finally {
    await other.close();
    await third.close();
  }
});
