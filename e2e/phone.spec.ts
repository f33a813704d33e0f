import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { demo, logoutModal, signIn, toDashboardPastMarketingStep } from './auth-helpers';

/*
 * Many customers use a phone (the mobile project: a small touch screen). A whole signed-in visit there:
 * sign in with a code by tapping, the dashboard's data, the header's menu to another page, and signing out
 * from the menu. The wide-screen journeys check every page at a phone's width as well; this one is a
 * touch screen from start to end. David (a voice call to his landline): Margaret's codes are already near
 * the ten an hour an account may be sent, with the other journeys.
 */

const david = { ...demo.david, phone: { number: demo.david.landline, radio: demo.david.landlineCallRadio } };
/** His migration renewal, on the dashboard and in his policies. */
const policyNumber = '204X7654321';

test('on a phone: sign in with a code, the dashboard, the menu to his policies, and sign out from the menu', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await signIn(page, request, david, david.phone);
  // At his first sign-in he is asked about marketing first (whichever journey signs him in first).
  await toDashboardPastMarketingStep(page);
  await expect(page.locator('main')).toContainText(policyNumber);
  await expectNoSeriousA11yViolations(page);

  // The header's links are behind its menu button on a phone; the menu says it is open.
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.tap();
  const close = page.getByRole('button', { name: 'Close menu', exact: true });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  const main = page.getByRole('navigation', { name: 'Main menu' });
  await expect(main.getByRole('link', { name: 'Your policies' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await main.getByRole('link', { name: 'Your policies' }).tap();
  await expect(page).toHaveURL(/\/account\/policies$/);
  // The menu closes with the move.
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(page.locator('main')).toContainText(policyNumber);
  await expectNoSeriousA11yViolations(page);

  // Sign out is in the menu as well, and asks first.
  await page.getByRole('button', { name: 'Menu', exact: true }).tap();
  await page.getByRole('button', { name: 'Sign out', exact: true }).filter({ visible: true }).first().tap();
  await expect(logoutModal(page)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await logoutModal(page).getByRole('button', { name: 'Yes, sign out' }).tap();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/account/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});
