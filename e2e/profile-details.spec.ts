import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { demo, signIn, toDashboardPastMarketingStep } from './auth-helpers';
import { expectNoSeriousA11yViolations } from './support/axe';
import { siteSettings } from './support/content';
import { expectReadable } from './support/contrast';
import { expect, test } from './support/fixtures';
import { pdfText } from './support/pdf-text';
import { expectScreenAtEverySize } from './support/screens';

/*
 * The profile pages, the quotes and the contact details a customer meets (issue 23, points 2, 3, 5, 7
 * and 8), on the real server with the seeded customers (README, "Demo sign-in"):
 * - David has no mobile (landline only), a quote that cannot be bought online and no agency, so the
 *   dashboard's contact card is the Mutual Direct fallback;
 * - Margaret has the marketing channels never set (they are offered) and both a mobile and a landline.
 *   Her marketing choice is saved here (Email), which no other journey reads.
 */

const david = { ...demo.david, phone: { number: demo.david.landline, radio: demo.david.landlineCallRadio } };
const margaret = {
  ...demo.margaret,
  phone: { number: demo.margaret.mobile, radio: demo.margaret.textRadio },
};
const freephone = String(siteSettings()['infinityPhoneTracking']);

/** A control that is not available looks it: not a pointer, a dashed border, and words still readable. */
async function expectLooksUnavailable(control: Locator): Promise<void> {
  await expect(control).toHaveAttribute('aria-disabled', 'true');
  await expect(control).toHaveCSS('cursor', 'not-allowed');
  await expect(control).toHaveCSS('border-top-style', 'dashed');
  await expectReadable(control);
}

/** Signs David in; at his first sign-in he answers the marketing step (No) on the way to the dashboard. */
async function signInDavid(page: Page, request: Parameters<typeof signIn>[1]): Promise<void> {
  await page.goto('/login');
  await signIn(page, request, david, david.phone);
  await toDashboardPastMarketingStep(page);
}

test.describe('profile, preferences, quotes and contact details', () => {
  // Several screens, each scanned by axe: two to three minutes on a busy two-core machine.
  test.describe.configure({ timeout: 240_000 });

  test('David: a quote continued by phone, one set of opening hours, the leaflet number, no empty rows', async ({
    page,
    request,
  }) => {
    await signInDavid(page, request);

    // Point 5: his quote cannot be bought online. Its button looks unavailable and says why.
    const quotes = page.getByRole('region', { name: 'Your quotes' });
    const byPhone = quotes.getByRole('button', { name: 'Continue your quote 204Q90000002' });
    await expectLooksUnavailable(byPhone);
    await expect(byPhone).toHaveAccessibleDescription(
      `This quote cannot be continued online. To continue it, call us free on ${freephone}.`,
    );
    await expect(quotes.getByRole('link', { name: freephone })).toHaveAttribute(
      'href',
      `tel:${freephone.replace(/\D/g, '')}`,
    );
    await byPhone.click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
    await expect(page).toHaveURL(/\/account\/dashboard$/);

    // Point 7: no agency, so the Mutual Direct card: the freephone number and one set of opening hours.
    const card = page.getByRole('region', { name: 'Contact us' });
    await expect(card).toContainText(`Call us free on ${freephone}.`);
    await expect(
      card.getByText('Our lines are open Monday to Friday, 8am to 8pm, and Saturday, 9am to 5pm.'),
    ).toBeVisible();
    expect((await card.textContent())?.match(/Monday to Friday/g)).toHaveLength(1);
    await expect(card).not.toContainText('08:00');
    await expectScreenAtEverySize(page);

    // Point 7: the "How to complain" leaflet gives the number every page gives.
    await page.goto('/account/policies/documents?id=204X7654321');
    const leaflet = page.getByRole('button', { name: /How to complain/ });
    await expect(leaflet).toBeVisible();
    const download = page.waitForEvent('download');
    await leaflet.click();
    const text = pdfText(await readFile(await (await download).path()));
    expect(text).toContain(`Call us free on ${freephone}`);
    expect(text).not.toContain('0800 765 4321');
    await expectNoSeriousA11yViolations(page);

    // Point 8: no mobile held, so no Mobile number row; the landline row shows.
    await page.goto('/profile/contact-details');
    const details = page.getByRole('main');
    await expect(details.getByRole('definition').filter({ hasText: david.email })).toBeVisible();
    await expect(details.getByRole('term').filter({ hasText: 'Home phone number' })).toBeVisible();
    await expect(details.getByRole('term').filter({ hasText: 'Mobile number' })).toHaveCount(0);
    for (const value of await details.getByRole('definition').all()) await expect(value).not.toBeEmpty();
    await expectScreenAtEverySize(page);

    // Point 8 on the personal details too: every row shown has a value.
    await page.goto('/profile/personal-details');
    await expect(page.getByRole('term').filter({ hasText: 'Date of birth' })).toBeVisible();
    for (const value of await page.getByRole('main').getByRole('definition').all())
      await expect(value).not.toBeEmpty();
    await expectNoSeriousA11yViolations(page);
  });

  test('Margaret: Save follows the last saved choice; Send code waits for text or call', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, request, margaret, margaret.phone);
    // Signed in once the dashboard shows (an address opened before that is replaced by it).
    await expect(page).toHaveURL(/\/account\/dashboard$/);

    // Point 2: Save only when the choice differs from the last saved one.
    await page.goto('/profile/preferences');
    const save = page.getByRole('button', { name: 'Save marketing preferences' });
    const email = page.getByRole('checkbox', { name: 'Email' });
    await expect(page.getByRole('radio', { name: 'Yes, show me tailored offers' })).toBeChecked();
    await expectLooksUnavailable(save);
    await email.check();
    await expect(save).not.toHaveAttribute('aria-disabled');
    await email.uncheck();
    await expectLooksUnavailable(save);
    await expectScreenAtEverySize(page);
    await email.check();
    await save.click();
    await expect(page.getByText('Your marketing preferences have been saved.')).toBeVisible();
    // The saved choice is the baseline now: Save is unavailable until the choice differs from it again.
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('radio', { name: 'No, thank you' }).check();
    await expect(save).not.toHaveAttribute('aria-disabled');
    await page.getByRole('radio', { name: 'Yes, show me tailored offers' }).check();
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Yes, show me tailored offers' })).toBeChecked();
    // A channel is set now, so the channels are no longer offered (spec §4).
    await expect(email).toHaveCount(0);
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    await expectNoSeriousA11yViolations(page);

    // Point 3: the password modal's Send code is unavailable until text or call is chosen.
    await page.goto('/profile/login-security');
    const change = page.getByRole('button', { name: 'Change password' });
    await change.click();
    const dialog = page.getByRole('dialog', { name: 'Change your password' });
    const send = dialog.getByRole('button', { name: 'Send code' });
    await expectLooksUnavailable(send);
    await expectNoSeriousA11yViolations(page);
    await send.click({ force: true });
    // Pressed anyway, it says what is missing, as the sign-in verify page does, and stays on step one.
    await expect(dialog.getByText('Choose how to get your code')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Enter your code and new password' })).toHaveCount(0);
    await dialog.getByRole('radio', { name: margaret.textRadio }).check();
    await expect(send).not.toHaveAttribute('aria-disabled');
    await expect(send).toHaveCSS('cursor', 'pointer');
    await dialog.getByRole('button', { name: 'Cancel' }).last().click();
    await expect(dialog).toHaveCount(0);
    await expect(change).toBeFocused();
  });
});
