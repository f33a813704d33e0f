import {
  enterCredentials,
  enterCode,
  signIn,
  toDashboardPastMarketingStep,
  watchOutbox,
} from './auth-helpers';
import { expectNoA11yFindingsAtAnyLevel } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';

/*
 * Issue 26 points 1, 2 and 6 (decision 026) on the real server: Brenda (C1000013) changes her email address
 * and her mobile number; Alan (C1000014, a landline only) adds a mobile, then closes his online account,
 * lands on the closed page, and signing in again is refused as for an unknown account. Codes come from
 * the dev outbox. They are these journeys' own demo customers (README, "Demo sign-in"). Each new screen is
 * checked with axe at a phone's width and a desktop's.
 */

const brenda = {
  email: 'brenda.ashworth@example.co.uk',
  password: 'QuarryRowCoxwold56',
  phone: { number: '07700900999', radio: 'Text message to +44 XXXX XXX999' },
  newEmail: 'brenda.ashworth.new@example.co.uk',
  newMobile: '07700900997',
};
const alan = {
  email: 'alan.brereton@example.co.uk',
  password: 'OrchardHouseWyb50',
  phone: { number: '01632960914', radio: 'Phone call to +44 XXXX XXX914' },
  newMobile: '07700900912',
};

test.describe('changing contact details and closing the online account', () => {
  test.describe.configure({ timeout: 180_000 });

  test('Brenda changes her email address and her mobile number with codes sent to the new ones', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    // Her mobile and landline end in the same digits: each call says which line it goes to (issue 38).
    await signIn(page, request, brenda, brenda.phone, {
      alsoOffered: [
        'Phone call to your mobile, +44 XXXX XXX999',
        'Phone call to your landline, +44 XXXX XXX999',
      ],
    });
    await toDashboardPastMarketingStep(page);
    await page.goto('/profile/contact-details');
    const details = page.getByRole('main');
    await expect(details.getByRole('definition').filter({ hasText: brenda.email })).toBeVisible();
    await expectScreenAtEverySize(page);

    // The email address: the new one twice; a mismatch is shown in the summary and beside the field.
    await details.getByRole('button', { name: 'Change email address' }).click();
    await expect(details.getByRole('heading', { name: 'Change your email address' })).toBeFocused();
    // Every rule axe runs, best practice included: the steps' headings follow the page's (issue 38).
    await expectNoA11yFindingsAtAnyLevel(page);
    await details.getByRole('textbox', { name: 'New email address', exact: true }).fill(brenda.newEmail);
    await details.getByRole('textbox', { name: 'Type the new email address again' }).fill('brenda@example');
    await details.getByRole('button', { name: 'Send code' }).click();
    const summary = details.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(summary).toContainText('The email addresses do not match');
    await expect(details.getByRole('textbox', { name: 'New email address', exact: true })).toHaveValue(
      brenda.newEmail,
    );
    await expectScreenAtEverySize(page);
    const mail = await watchOutbox(request, brenda.newEmail);
    await details.getByRole('textbox', { name: 'Type the new email address again' }).fill(brenda.newEmail);
    await details.getByRole('button', { name: 'Send code' }).click();
    await expect(details.getByRole('heading', { name: 'Enter the code we sent you' })).toBeFocused();
    await expect(
      details.getByText(`We have sent a 6-digit security code to ${brenda.newEmail}`),
    ).toBeVisible();
    await expectScreenAtEverySize(page);
    await expectNoA11yFindingsAtAnyLevel(page);
    await enterCode(page, await mail.next());
    await details.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      details.getByRole('alert').filter({ hasText: 'Your email address has been changed' }),
    ).toBeFocused();
    await expect(details.getByRole('definition').filter({ hasText: brenda.newEmail })).toBeVisible();

    // The mobile number: a code texted to the new one.
    await details.getByRole('button', { name: 'Change mobile number' }).click();
    await expect(details.getByRole('heading', { name: 'Change your mobile number' })).toBeFocused();
    const text = await watchOutbox(request, brenda.newMobile);
    await details.getByRole('textbox', { name: 'New mobile number' }).fill('07700 900 997');
    await details.getByRole('button', { name: 'Send code' }).click();
    await expect(details.getByRole('heading', { name: 'Enter the code we sent you' })).toBeFocused();
    await enterCode(page, await text.next());
    await details.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      details.getByRole('alert').filter({ hasText: 'Your mobile number has been changed' }),
    ).toBeFocused();
    await expect(details.getByRole('definition').filter({ hasText: '07700900997' })).toBeVisible();
    await expectScreenAtEverySize(page);
  });

  test('Alan adds a mobile, closes his online account, and can no longer sign in', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, request, alan, alan.phone);
    await toDashboardPastMarketingStep(page);

    await page.goto('/profile/contact-details');
    const details = page.getByRole('main');
    await details.getByRole('button', { name: 'Add a mobile number' }).click();
    await expect(details.getByRole('heading', { name: 'Add a mobile number' })).toBeFocused();
    await details.getByRole('button', { name: 'Send code' }).click();
    await expect(details.getByRole('alert').filter({ hasText: 'Enter your mobile number' })).toBeFocused();
    const text = await watchOutbox(request, alan.newMobile);
    await details.getByRole('textbox', { name: 'New mobile number' }).fill(alan.newMobile);
    await details.getByRole('button', { name: 'Send code' }).click();
    await enterCode(page, await text.next());
    await details.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      details.getByRole('alert').filter({ hasText: 'Your mobile number has been added' }),
    ).toBeFocused();

    // Closing, from the sign-in and security page.
    await page.goto('/profile/login-security');
    await page.getByRole('link', { name: 'Close your online account' }).click();
    await expect(page).toHaveURL(/\/profile\/close-account$/);
    const close = page.getByRole('region', { name: 'Before you close your account' });
    await expect(close.getByText('Your policies and documents stay with us')).toBeVisible();
    await expectScreenAtEverySize(page);
    const code = await watchOutbox(request, alan.newMobile);
    await close.getByRole('radio', { name: 'Text message to +44 XXXX XXX912' }).check();
    await close.getByRole('button', { name: 'Send code' }).click();
    await expect(close.getByRole('heading', { name: 'Enter your code to close your account' })).toBeFocused();
    await expectScreenAtEverySize(page);
    await enterCode(page, await code.next());
    await close.getByRole('button', { name: 'Close my online account' }).click();

    await expect(page).toHaveURL(/\/account-closed$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Your online account is closed' }),
    ).toBeVisible();
    await expectScreenAtEverySize(page);

    // Signing in again is refused as for an address with no account.
    await page.goto('/login');
    await enterCredentials(page, alan.email, alan.password);
    await expect(page.getByRole('alert')).toContainText('The email address or password is not right');
  });
});
