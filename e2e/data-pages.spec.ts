import { expectNoSeriousA11yViolations } from './support/axe';
import { contentPage } from './support/content';
import { expect, test } from './support/fixtures';
import { demo, signIn, toDashboardPastMarketingStep } from './auth-helpers';

/*
 * Issue 23, as a customer with data meets the data pages on the real server and the seeded portfolio
 * (README, "Demo sign-in"): a policy's actions are offered and worded by its status and flags. Helen's
 * half (every menu item, "Your policies", load more) is in dashboard.spec.ts, after the journey that sees
 * her welcome-back message, which is shown once.
 */

const david = { ...demo.david, phone: { number: demo.david.landline, radio: demo.david.landlineCallRadio } };

test.describe('data pages (issue 23)', () => {
  test.describe.configure({ timeout: 180_000 });

  test('David: an expired policy offers no change; a migration renewal without online changes does not promise them', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, request, david, david.phone);
    // His first sign-in asks for his marketing choice first.
    await toDashboardPastMarketingStep(page);
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
