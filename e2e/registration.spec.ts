import type { APIRequestContext, Page } from '@playwright/test';
import { completeChallenge, signOut, signOutButton, watchOutbox } from './auth-helpers';
import { expectNoA11yFindingsAtAnyLevel, expectNoSeriousA11yViolations } from './support/axe';
import { expectReadable } from './support/contrast';
import { expect, test } from './support/fixtures';
import { expectScreenAtEverySize } from './support/screens';
import { virtualAuthenticator } from './support/virtual-authenticator';

/*
 * Registration journeys against the real server and the seeded demo customers
 * (apps/server/src/db/demo/customers.ts). The activation link and the codes are read from the dev outbox.
 * Eleanor Hughes is not registered yet (mobile only); Priya Shah has no email on file, so registration
 * asks for her policy number.
 */

const eleanor = {
  email: 'eleanor.hughes@example.co.uk',
  dateOfBirth: '25111978',
  postcode: 'EX39 2QQ',
  mobile: '07700900456',
  password: 'OrchardLaneBideford78',
};

const priya = {
  email: 'priya.shah@example.co.uk',
  dateOfBirth: '30061985',
  postcode: 'YO17 7BN',
  policyNumber: '507P87654321',
};

interface OutboxMessage {
  to: string;
  body: string;
  kind: string;
  createdAt: string;
}

/** The newest email of a kind to an address, waiting for it to arrive. */
async function emailTo(request: APIRequestContext, to: string, kind: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/outbox/api?to=${encodeURIComponent(to)}&limit=20`);
        expect(res.status()).toBe(200);
        const { messages } = (await res.json()) as { messages: OutboxMessage[] };
        found = messages.find((m) => m.kind === kind);
        return found !== undefined;
      },
      { message: `a ${kind} email to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The site path and query of the first link to this portal in an email. */
function linkIn(body: string): string {
  const match = /https?:\/\/\S+/.exec(body);
  if (!match) throw new Error('no link in the email');
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

async function fillRegistration(
  page: Page,
  details: { email: string; dateOfBirth: string; postcode: string },
) {
  await page.getByRole('textbox', { name: 'Email address' }).fill(details.email);
  // Typed as digits, as on a phone's number pad: the slashes are put in while typing.
  await page.getByRole('textbox', { name: 'Date of birth' }).pressSequentially(details.dateOfBirth);
  await expect(page.getByRole('textbox', { name: 'Date of birth' })).toHaveValue(
    `${details.dateOfBirth.slice(0, 2)}/${details.dateOfBirth.slice(2, 4)}/${details.dateOfBirth.slice(4)}`,
  );
  await page.getByRole('textbox', { name: 'Postcode' }).fill(details.postcode);
  await page.getByRole('checkbox', { name: 'I have read and agree to the terms of use' }).check();
}

test.describe('registration', () => {
  // Whole journeys, each screen scanned by axe: up to a minute on a busy two-core machine.
  test.describe.configure({ timeout: 120_000 });

  test('register, activate from the email, set a password, text code, marketing step, passkey offer, dashboard', async ({
    page,
    request,
  }) => {
    // A device that can make passkeys (fingerprint, face or PIN): the new account is offered one.
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto('/register');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Register for an online account' }),
    ).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);

    // Continue is not available until the form is complete (aria-disabled, so it stays focusable and
    // pressable, which Playwright's actionability check would otherwise wait out); pressing it says what is missing.
    await page.getByRole('button', { name: 'Continue' }).click({ force: true });
    await expect(page.getByRole('alert')).toContainText('Enter your email address');
    await expect(page.getByRole('alert')).toBeFocused();
    await expectNoA11yFindingsAtAnyLevel(page);

    await fillRegistration(page, eleanor);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/register\/check-your-email$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('registrationJourney'))).toBe('1');
    await expectNoA11yFindingsAtAnyLevel(page);

    const activation = await emailTo(request, eleanor.email, 'activation');
    const link = linkIn(activation.body);
    expect(link).toMatch(/^\/register\/activate\?token=/);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Create your password' })).toBeVisible();
    const passwordBox = page.getByLabel('Create a password');
    await expect(passwordBox).toBeVisible();
    await expect(page.getByText('No spaces', { exact: false })).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);
    // Analytics sees the page, never the token in its address.
    const dataLayer = await page.evaluate(() =>
      JSON.stringify((window as { dataLayer?: unknown[] }).dataLayer ?? []),
    );
    expect(dataLayer).toContain('"virtualPagePath":"/register/activate"');
    expect(dataLayer).not.toContain(link.split('token=')[1]!);

    // A password the identity provider refuses (a common one): its own message, and the field is cleared.
    await passwordBox.fill('qwerty123456');
    await page.getByRole('button', { name: 'Create password' }).click();
    await expect(page.getByRole('alert')).toContainText('too common');
    await expect(passwordBox).toHaveValue('');

    const phone = await watchOutbox(request, eleanor.mobile);
    await passwordBox.fill(eleanor.password);
    await page.getByRole('button', { name: 'Create password' }).click();
    await expect(page).toHaveURL(/\/login\/verify$/);
    await page.getByRole('radio', { name: /^Text message to/ }).check();
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
    // Once signed in, the registration is completed with the activation's user id and state token.
    const completion = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/v1/registration/complete',
    );
    await completeChallenge(page, phone);
    expect((await completion).status()).toBe(200);

    // Signed in, at the first-sign-in marketing step.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How we keep in touch' })).toBeVisible();
    const save = page.getByRole('button', { name: 'Save and continue' });
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    // Not usable yet, and still easy to read.
    await expectReadable(save);
    // The account's pages are not open before this step: their menu is not offered, at any width.
    const mainMenu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(mainMenu).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Account menu' }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('checkbox', { name: 'Email' }).check();
    await page.getByRole('radio', { name: 'Yes, show me tailored offers' }).check();
    await expect(save).not.toHaveAttribute('aria-disabled');
    await save.click();

    // The offer to set up a passkey, in plain words, with "Not now" beside it.
    await expect(page).toHaveURL(/\/account\/passkey$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Sign in more easily next time' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Not now' })).toBeVisible();
    await expectScreenAtEverySize(page);
    await page.getByRole('button', { name: 'Set up a passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('Your passkey is set up');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    // The device forgets it again: the sign-in page below would otherwise offer (and use) it.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await page.getByRole('button', { name: 'Continue to your account' }).click();

    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(signOutButton(page)).toBeVisible();
    await expect(mainMenu).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('registrationJourney'))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('registrationCompletion'))).toBeNull();
    await expectNoSeriousA11yViolations(page);

    // The activation link has done its work: opening it again goes back to registration with the warning.
    await signOut(page);
    await expect(page).toHaveURL(/\/login$/);
    await page.goto(link);
    await expect(page).toHaveURL(/\/register\?warning=bad-token$/);
  });

  test('NEED_MORE_DATA asks for the policy number, then the registration goes through', async ({
    page,
    request,
  }) => {
    await page.goto('/register');
    await fillRegistration(page, priya);
    await page.getByRole('button', { name: 'Continue' }).click();

    const policyNumber = page.getByRole('textbox', { name: 'Policy number' });
    await expect(policyNumber).toBeVisible();
    await expect(policyNumber).toBeFocused();
    await expect(page.getByText('We need a little more information to find your policy')).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);

    await policyNumber.fill('507P8765');
    // Leaving the field shows its error (validation on blur); then Continue names it in the summary.
    await policyNumber.press('Tab');
    await expect(policyNumber).toHaveAccessibleDescription(/Enter your policy number exactly as it appears/);
    await page.getByRole('button', { name: 'Continue' }).click({ force: true });
    await expect(page.getByRole('alert')).toContainText('Enter your policy number exactly as it appears');
    await expectNoA11yFindingsAtAnyLevel(page);

    await policyNumber.fill(priya.policyNumber.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/register\/check-your-email$/);
    const activation = await emailTo(request, priya.email, 'activation');
    expect(linkIn(activation.body)).toMatch(/^\/register\/activate\?token=/);
  });

  test('details that match no policy show the failure blocks', async ({ page }) => {
    await page.goto('/register');
    await fillRegistration(page, {
      email: 'someone@example.co.uk',
      dateOfBirth: '01011960',
      postcode: 'ZZ1 1ZZ',
    });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'We could not find your details' })).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);
    await page.getByRole('link', { name: /Check my details and try again/ }).click();
    await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveValue('');
  });

  test('a bad activation link opens registration with the invalid-link message', async ({ page }) => {
    await page.goto('/register/activate?token=not-a-real-token');
    await expect(page).toHaveURL(/\/register\?warning=bad-token$/);
    await expect(page.getByText('The link you used has expired or has already been used')).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);

    await page.goto('/register/activate');
    await expect(page).toHaveURL(/\/register\?warning=bad-token$/);
  });
});
