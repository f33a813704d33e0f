import type { CDPSession, Page } from '@playwright/test';
import { enterCredentials, signIn, signOut, toDashboardPastMarketingStep } from './auth-helpers';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';
import { virtualAuthenticator } from './support/virtual-authenticator';

/*
 * Passkeys (issue 25 points 1 and 8), with Chromium's virtual authenticator (a platform authenticator
 * that holds discoverable credentials and verifies the user): Gareth adds a passkey from the profile,
 * signs out, signs in with the passkey alone (the button; then the email field's autofill list), signs
 * in with the password and then the passkey (the sign-in chooser), and removes it. Gareth is the passkey journeys' own demo customer (README, "Demo sign-in"). Each new screen
 * is checked at a phone's width and a desktop's (axe), and for reflow between.
 */

const gareth = {
  email: 'gareth.pryce@example.co.uk',
  password: 'TyGwynLlandovery61',
  phone: { number: '07700900777', radio: 'Text message to +44 XXXX XXX777' },
};

/** Signs out from the top of the page (the header's button scrolls away with the content). */
async function signOutFromTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await signOut(page);
  // Signed out once the sign-in page shows: going elsewhere sooner could cut the sign-out short.
  await expect(page.getByRole('textbox', { name: 'Email address' })).toBeVisible();
}

async function credentialCount(cdp: CDPSession, authenticatorId: string): Promise<number> {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  return credentials.length;
}

test.describe('passkeys', () => {
  // One customer's passkeys: one journey at a time.
  test.describe.configure({ mode: 'serial', timeout: 240_000 });

  test('Gareth adds a passkey, signs in with it alone, renames and removes it', async ({ page, request }) => {
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await page.goto('/login');
    await signIn(page, request, gareth, gareth.phone);
    await toDashboardPastMarketingStep(page);

    // Add a passkey from the profile's sign-in and security page.
    await page.goto('/profile/login-security');
    const block = page.getByRole('region', { name: 'Passkeys' });
    await expect(block.getByText('You have not set up a passkey yet.')).toBeVisible();
    await expectScreenAtEverySize(page);
    await block.getByRole('button', { name: 'Add a passkey' }).click();
    const name = block.getByRole('textbox', { name: 'Name for this passkey' });
    await expect(name).toBeFocused();
    await name.fill('');
    await block.getByRole('button', { name: 'Continue' }).click();
    await expect(
      block.getByText('Enter a name for the passkey, 60 characters or fewer').first(),
    ).toBeVisible();
    await expectScreenAtEverySize(page);
    await name.fill('Virtual laptop');
    await block.getByRole('button', { name: 'Continue' }).click();
    await expect(block.getByRole('alert').filter({ hasText: 'Your passkey has been added.' })).toBeFocused();
    await expect(block.getByRole('heading', { name: 'Virtual laptop' })).toBeVisible();
    await expect(block.getByText('Not used yet')).toBeVisible();
    expect(await credentialCount(cdp, authenticatorId)).toBe(1);
    await expectScreenAtEverySize(page);

    // Sign out, then sign in with the passkey alone: no password, no code. The sign-in page also offers
    // passkeys in the email field's autofill list, which this authenticator would answer at once (the
    // second journey): the passkey is taken out of it while the page opens, so the button is what signs in.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const saved = credentials[0]!;
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: saved.credentialId });
    await signOutFromTop(page);
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveAttribute(
      'autocomplete',
      'username webauthn',
    );
    const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
    await expect(passkeyButton).toBeVisible();
    await expectScreenAtEverySize(page);
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: saved });
    await passkeyButton.click();
    await toDashboardPastMarketingStep(page);

    // Last used is now set; rename it.
    await page.goto('/profile/login-security');
    await expect(block.getByRole('heading', { name: 'Virtual laptop' })).toBeVisible();
    await expect(block.getByText('Not used yet')).toHaveCount(0);
    await block.getByRole('button', { name: 'Rename: Virtual laptop' }).click();
    const rename = block.getByRole('textbox', { name: 'Name for this passkey' });
    await expect(rename).toHaveValue('Virtual laptop');
    await rename.fill('Work laptop');
    await block.getByRole('button', { name: 'Save name' }).click();
    await expect(
      block.getByRole('alert').filter({ hasText: 'Your passkey has been renamed.' }),
    ).toBeVisible();
    await expect(block.getByRole('heading', { name: 'Work laptop' })).toBeVisible();

    // Remove it, after a confirmation; a cancelled confirmation changes nothing.
    await block.getByRole('button', { name: 'Remove: Work laptop' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove “Work laptop”?' });
    await expect(confirm).toBeVisible();
    await expectScreenAtEverySize(page);
    await confirm.getByRole('button', { name: 'Cancel' }).first().click();
    await expect(block.getByRole('heading', { name: 'Work laptop' })).toBeVisible();
    await block.getByRole('button', { name: 'Remove: Work laptop' }).click();
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(
      block.getByRole('alert').filter({ hasText: 'Your passkey has been removed.' }),
    ).toBeVisible();
    await expect(block.getByText('You have not set up a passkey yet.')).toBeVisible();

    // The removed passkey no longer signs in (the device still offers it, from the autofill list and from
    // the button): a clear message each time, and the password form still works.
    await signOutFromTop(page);
    const refused = page.getByText('We could not sign you in with a passkey.');
    await expect(refused).toBeVisible();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(refused).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await expectScreenAtEverySize(page);
    await expect(page.getByRole('textbox', { name: 'Email address' })).toBeEditable();
  });

  test('the email field offers the passkey in its autofill list (conditional mediation), and it is the second step after the password', async ({
    page,
    request,
  }) => {
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto('/login');
    await signIn(page, request, gareth, gareth.phone);
    await toDashboardPastMarketingStep(page);
    await page.goto('/profile/login-security');
    const block = page.getByRole('region', { name: 'Passkeys' });
    await block.getByRole('button', { name: 'Add a passkey' }).click();
    await block.getByRole('textbox', { name: 'Name for this passkey' }).fill('Autofill phone');
    await block.getByRole('button', { name: 'Continue' }).click();
    await expect(block.getByRole('heading', { name: 'Autofill phone' })).toBeVisible();
    expect(await credentialCount(cdp, authenticatorId)).toBe(1);

    // With automatic presence, the virtual authenticator answers the page's waiting autofill request as
    // soon as it is made: the customer is signed in without touching the form. (So the sign-in page may be
    // gone before a test could see it: no waiting for it here.)
    await page.evaluate(() => window.scrollTo(0, 0));
    await signOut(page);
    await toDashboardPastMarketingStep(page);

    // The passkey as the second step after the password. It is taken out of the authenticator while the
    // sign-in page is open (else the autofill request would answer), and put back on the chooser, where
    // it comes first, having been used last.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const saved = credentials[0]!;
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: saved.credentialId });
    await signOutFromTop(page);
    await enterCredentials(page, gareth.email, gareth.password);
    await expect(page).toHaveURL(/\/login\/verify$/);
    const radios = page.getByRole('radio');
    await expect(radios.first()).toHaveAccessibleName('A passkey');
    await expect(page.getByRole('radio', { name: gareth.phone.radio })).toBeVisible();
    await expectScreenAtEverySize(page);
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: saved });
    await radios.first().check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await toDashboardPastMarketingStep(page);

    await page.goto('/profile/login-security');
    await block.getByRole('button', { name: 'Remove: Autofill phone' }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove “Autofill phone”?' })
      .getByRole('button', { name: 'Remove passkey' })
      .click();
    await expect(block.getByText('You have not set up a passkey yet.')).toBeVisible();
  });
});
