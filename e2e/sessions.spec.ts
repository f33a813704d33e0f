import { signIn, tabTo, toDashboardPastMarketingStep } from './auth-helpers';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';

/*
 * "Where you're signed in" (issue 26 point 3): Fiona signs in from two browsers (two contexts, as a laptop
 * and a phone would be), sees both listed on the sign-in and security page with this device marked, and
 * signs the other out with the keyboard alone. The other browser's next data call then lands on the
 * sign-in page. Fiona is this journey's own demo customer (README, "Demo sign-in"). The screen is checked
 * at a phone's width and a desktop's (axe).
 */

const fiona = {
  email: 'fiona.maclean@example.co.uk',
  password: 'RowanLodgeOban58',
  phone: { number: '07700900888', radio: 'Text message to +44 XXXX XXX888' },
};

test('Fiona sees where she is signed in and signs the other browser out by keyboard', async ({
  page,
  browser,
  request,
}) => {
  const other = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London' });
  const elsewhere = await other.newPage();
  try {
    await elsewhere.goto('/login');
    await signIn(elsewhere, request, fiona, fiona.phone);
    await toDashboardPastMarketingStep(elsewhere);

    await page.goto('/login');
    await signIn(page, request, fiona, fiona.phone);
    await toDashboardPastMarketingStep(page);

    await page.goto('/profile/login-security');
    const block = page.getByRole('region', { name: "Where you're signed in" });
    const sessions = block.getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    // This device comes first and is marked; only the other has a sign-out button.
    await expect(sessions.first().getByText('This device')).toBeVisible();
    await expect(sessions.first().getByRole('button')).toHaveCount(0);
    await expect(sessions.nth(1).getByText('This device')).toHaveCount(0);
    await expect(block.getByText('Just now').first()).toBeVisible();
    await expectScreenAtEverySize(page);

    // Keyboard only: Tab to the other session's sign-out button and press Enter.
    const signOutOther = sessions.nth(1).getByRole('button', { name: /^Sign out .+, signed in / });
    await tabTo(page, signOutOther);
    await page.keyboard.press('Enter');
    const status = block.getByText(/has been signed out\.$/);
    await expect(status).toBeVisible();
    // The outcome is announced where the focus now is (the button went with the session).
    await expect(page.locator('[aria-live="polite"]:focus')).toContainText('has been signed out.');
    await expect(sessions).toHaveCount(1);
    await expect(block.getByText('You are not signed in anywhere else.')).toBeVisible();

    // The other browser's next data call is refused: it lands on the sign-in page.
    await elsewhere.goto('/profile/login-security');
    await expect(elsewhere).toHaveURL(/\/login(\?|$)/);
    await expect(elsewhere.getByRole('textbox', { name: 'Email address' })).toBeVisible();

    // This browser is still signed in.
    await page.reload();
    await expect(block.getByRole('listitem')).toHaveCount(1);
  } finally {
    await other.close();
  }
});
