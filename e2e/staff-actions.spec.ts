import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { enterCredentials, signIn, toDashboardPastMarketingStep } from './auth-helpers';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectConsoleScreen, signInToConsole, staff } from './support/staff-console';

/*
 * The staff console's actions, end to end (issue 41 point 5 and its "Done when"): Nia's sign-in locks
 * after wrong passwords, an agent finds her by policy number with a reason, sees it locked and until when,
 * unlocks it, and Nia, on her own browser, signs in and reads "Our contact centre unlocked your sign-in" in
 * her account activity; Hywel sets up an authenticator app, a senior agent removes it (he lost his phone)
 * and he is emailed. Nia and Hywel are these journeys' own demo customers (README, "Demo sign-in"), so
 * nobody else's sign-in is locked or changed. Each new console screen is checked with axe at a desktop's
 * width and at 320 px. Then Nia gives the agent a code from her Sign-in and security page, the agent opens
 * her account read only in a new tab (the banner on every page, a preference save refused), and Nia stops
 * the view from "Where you're signed in" and reads in her activity what was looked at (issue 41 point 6).
 */

const nia = {
  customerId: 'C1000018',
  name: 'Nia Rowlands',
  email: 'nia.rowlands@example.co.uk',
  password: 'BrynAwelLlandeilo63',
  policyNumber: '818X1000018',
  phone: { number: '07700900181', radio: 'Text message to +44 XXXX XXX181' },
};

const hywel = {
  customerId: 'C1000019',
  name: 'Hywel Bevan',
  email: 'hywel.bevan@example.co.uk',
  password: 'TanyardPresteigne59',
  phone: { number: '07700900191', radio: 'Text message to +44 XXXX XXX191' },
};

/** Wrong passwords in a row that lock a sign-in (identityLimits.lockoutThreshold on the server). */
const LOCKOUT_THRESHOLD = 10;
/** How long a lockout lasts (identityLimits.lockoutMs). */
const LOCKOUT_MS = 30 * 60_000;

/**
 * The customer's own browser: a context of its own, from an address of its own (the portal limits failed
 * sign-ins and codes per client address), with the fixtures' guard against CSP breaks and uncaught errors.
 */
async function customerBrowser(browser: Browser, clientAddress: string) {
  const parts = clientAddress.split('.').map(Number);
  const address = `${parts[0]}.${parts[1]}.${parts[2]}.${((parts[3]! + 126) % 254) + 1}`;
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': address } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`Uncaught: ${error.message}`));
  return {
    page,
    async close() {
      await context.close();
      expect(problems, "the customer's page broke the CSP or threw").toEqual([]);
    },
  };
}

/** "7 December 2026 at 2:05pm" in UK time, as the console writes an instant (staff/lib/format.ts). */
function ukDateTime(at: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h12',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const period = String(parts['dayPeriod'] ?? '')
    .toLowerCase()
    .replace(/[.\s]/g, '');
  return `${parts['day']} ${parts['month']} ${parts['year']} at ${Number(parts['hour'])}:${parts['minute']}${period}`;
}

/** One try of a password on the sign-in page: the identity service's answer's status. */
async function tryPassword(page: Page, password: string): Promise<number> {
  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1/authn' && r.request().method() === 'POST',
  );
  await enterCredentials(page, nia.email, password);
  const status = (await answer).status();
  // The page has taken the answer when it has cleared the password.
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  return status;
}

/** Opens the record of the one customer a search found, and checks the reason it was opened for. */
async function openOnlyResult(page: Page, name: string, reason: string) {
  await expect(page.getByRole('heading', { level: 2, name: '1 customer found' })).toBeFocused();
  await page.getByRole('link', { name: new RegExp(`^Open record for .*${name}$`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeFocused();
  await expect(page.getByText(`Opened for: ${reason}`)).toBeVisible();
}

test("Nia's sign-in locks after wrong passwords; an agent unlocks it and she reads so in her activity", async ({
  page,
  browser,
  request,
  clientAddress,
}) => {
  // Ten wrong passwords, the agent's screens with axe, a sign-in with a code, and the read-only view.
  test.setTimeout(240_000);
  const customer = await customerBrowser(browser, clientAddress);
  try {
    // Wrong passwords on the sign-in page until her sign-in locks; then the right one is refused too.
    await customer.page.goto('/login');
    let lockedFrom = 0;
    let lockedBy = 0;
    for (let wrong = 0; wrong < LOCKOUT_THRESHOLD;) {
      const before = Date.now();
      const status = await tryPassword(customer.page, `NotHerPassword${wrong}`);
      // More than 4 tries a second for one email are refused before the password is checked: not counted.
      if (status === 429) {
        await customer.page.waitForTimeout(1000);
        continue;
      }
      expect(status).toBe(401);
      await expect(
        customer.page.getByRole('alert').filter({ hasText: 'The email address or password is not right' }),
      ).toBeVisible();
      wrong += 1;
      [lockedFrom, lockedBy] = [before, Date.now()];
    }
    expect(await tryPassword(customer.page, nia.password)).toBe(401);

    // An agent finds her by policy number with a reason, and sees her sign-in locked and until when.
    await signInToConsole(page, request, staff.agent);
    await page.getByRole('radio', { name: 'Policy number' }).check();
    await page.getByRole('textbox', { name: 'Policy number' }).fill(nia.policyNumber);
    await page.getByRole('textbox', { name: 'Reason' }).fill('CALL-E2E-0051');
    await page.getByRole('button', { name: 'Search' }).click();
    await openOnlyResult(page, nia.name, 'CALL-E2E-0051');
    const glance = page.getByRole('region', { name: 'At a glance' });
    const until = [lockedFrom, lockedBy].map((at) => `Locked until ${ukDateTime(at + LOCKOUT_MS)}`);
    await expect(glance).toContainText(/Locked until \d{1,2} \w+ \d{4} at \d{1,2}:\d{2}(am|pm)/);
    expect(until).toContain(
      (await glance.getByText(/^Locked until /).textContent())?.replace(/\s+/g, ' ').trim(),
    );
    // An agent is offered no senior agent's action (unit tested for every role in the console's tests).
    const actions = page.getByRole('region', { name: 'Help this customer' });
    await expect(actions.getByRole('button', { name: 'Unlock sign-in' })).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Change email address' })).toHaveCount(0);
    await expect(actions.getByRole('button', { name: 'Remove second factors' })).toHaveCount(0);
    await expectConsoleScreen(page);

    // Unlocked, with the record's reason, after a look at what it does.
    await actions.getByRole('button', { name: 'Unlock sign-in' }).click();
    const panel = page.getByRole('region', { name: 'Unlock their sign-in' });
    await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
    await expect(panel).toContainText('They will see that our contact centre unlocked it.');
    const reason = panel.getByRole('textbox', { name: 'Reason' });
    await expect(reason).toHaveValue('CALL-E2E-0051');
    await reason.fill('CALL-E2E-0051 unlock after wrong passwords');
    await expectConsoleScreen(page);
    await panel.getByRole('button', { name: 'Unlock sign-in' }).click();
    const done = actions.getByRole('alert').filter({ hasText: 'Done' });
    await expect(done).toContainText('The customer’s sign-in is unlocked.');
    await expect(done).toBeFocused();
    await expect(panel).toHaveCount(0);
    await expect(glance).toContainText('Not locked');
    await expect(actions.getByRole('button', { name: 'Unlock sign-in' })).toHaveCount(0);
    await expectConsoleScreen(page);

    // Nia, on her own browser, signs in with her password and a code, and reads what happened.
    await customer.page.goto('/login');
    await signIn(customer.page, request, nia, nia.phone);
    await toDashboardPastMarketingStep(customer.page);
    await customer.page.goto('/profile/login-security');
    await customer.page.getByRole('link', { name: 'See your account activity' }).click();
    await expect(
      customer.page.getByRole('heading', { level: 1, name: 'Your account activity' }),
    ).toBeVisible();
    const titles = customer.page.locator('.account-activity__title');
    await expect(titles.first()).toBeVisible();
    const read = await titles.allTextContents();
    const unlocked = read.indexOf('Our contact centre unlocked your sign-in');
    expect(unlocked, 'the unlock is in her activity').toBeGreaterThanOrEqual(0);
    // Newest first: her sign-in after it, the lockout before it.
    expect(read.slice(0, unlocked)).toContain('You signed in');
    expect(read.slice(unlocked)).toContain('Your account was locked after too many wrong attempts');

    // Nia gets a code to share her screen, and reads it to the agent.
    await customer.page.goto('/profile/login-security');
    const share = customer.page.getByRole('region', { name: 'Share your screen with us' });
    await share.getByRole('button', { name: 'Get a code' }).click();
    const digits = share.locator('.share-code__digits');
    await expect(digits).toHaveText(/^\d{3} \d{3}$/);
    const code = (await digits.textContent())!.replace(/\D/g, '');

    // The agent enters it with a reason and opens the link: Nia's dashboard, read only, in a new tab.
    const sharing = page.getByRole('region', { name: 'See what the customer sees' });
    await sharing.getByRole('textbox', { name: 'Code the customer reads out' }).fill(code);
    await sharing.getByRole('textbox', { name: 'Reason' }).fill('CALL-E2E-0051 cannot find her renewal');
    await sharing.getByRole('button', { name: 'Get the link' }).click();
    const ready = sharing.getByRole('alert').filter({ hasText: 'The view is ready' });
    await expect(ready).toBeFocused();
    await expectConsoleScreen(page);
    const [view] = await Promise.all([
      page.context().waitForEvent('page'),
      ready
        .getByRole('link', {
          name: new RegExp(`^Open .*${nia.name}’s account, read only \\(opens in a new tab\\)$`),
        })
        .click(),
    ]);
    const banner = view.getByRole('region', { name: 'Read-only view' });
    await expect(banner).toContainText(`Viewing as ${nia.name}, read only`);
    await expect(view).toHaveURL(/\/account\/dashboard$/);
    await expect(view.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(view);

    // Every page says so; a change is refused and nothing is saved.
    await view.goto('/profile/preferences');
    await expect(banner).toContainText(`Viewing as ${nia.name}, read only`);
    const marketing = view.getByRole('region', { name: 'Offers and news' });
    const post = marketing.getByRole('checkbox', { name: 'Post' });
    await expect(post).toBeVisible();
    const wasTicked = await post.isChecked();
    await post.setChecked(!wasTicked);
    const refused = view.waitForResponse(
      (r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname.startsWith('/api/v1/Preferences/'),
    );
    await marketing.getByRole('button', { name: 'Save marketing preferences' }).click();
    expect((await refused).status()).toBe(403);
    await expect(marketing.getByText('Sorry, we could not save your changes.')).toBeVisible();
    await expectNoSeriousA11yViolations(view);

    // Nia sees who is looking under "Where you're signed in", and stops them.
    await customer.page.reload();
    const sessions = customer.page.getByRole('region', { name: "Where you're signed in" });
    const viewing = sessions.getByRole('listitem').filter({ hasText: 'Our contact centre: Alex Morgan' });
    await expect(viewing).toBeVisible();
    await viewing.getByRole('button', { name: /^Stop them viewing: Our contact centre/ }).click();
    await expect(viewing).toHaveCount(0);
    // The view's next data call is refused: its tab is signed out.
    await view.goto('/profile/login-security');
    await expect(view).toHaveURL(/\/login/);
    await expect(view.getByRole('region', { name: 'Read-only view' })).toHaveCount(0);

    // Her activity says what the contact centre looked at, and that she stopped it.
    await customer.page.goto('/profile/account-activity');
    await expect(titles.first()).toBeVisible();
    const after = await titles.allTextContents();
    expect(after[0]).toBe('You stopped our contact centre viewing your account');
    expect(after).toContain('Our contact centre viewed a page of your account');
    expect(after).toContain('Our contact centre began to view your account, read only');
    expect(after).toContain('You made a code to share your screen with us');
    await expect(customer.page.getByText('Page: Your preferences').first()).toBeVisible();
  } finally {
    await customer.close();
  }
});

/** The outbox's messages to an address, newest first, with their HTML part. */
async function emailsTo(request: APIRequestContext, to: string) {
  const res = await request.get(`/dev/outbox/api?to=${encodeURIComponent(to)}&limit=20`);
  expect(res.status()).toBe(200);
  return (
    (await res.json()) as {
      messages: Array<{ kind: string; subject: string | null; html: string | null; createdAt: string }>;
    }
  ).messages;
}

test("a senior agent removes Hywel's authenticator app (a lost phone) and he is emailed", async ({
  page,
  browser,
  request,
  clientAddress,
}) => {
  test.setTimeout(180_000);
  const customer = await customerBrowser(browser, clientAddress);
  try {
    // Hywel sets up an authenticator app from Sign-in and security, as he would have before losing it.
    await customer.page.goto('/login');
    await signIn(customer.page, request, hywel, hywel.phone);
    await toDashboardPastMarketingStep(customer.page);
    await customer.page.goto('/profile/login-security');
    const appBlock = customer.page.getByRole('region', { name: 'Authenticator app' });
    await appBlock.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = (await appBlock.locator('code.totp-key').textContent()) ?? '';
    const app = new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')) });
    await appBlock.getByRole('textbox', { name: 'Code from your app' }).fill(app.generate());
    await appBlock.getByRole('button', { name: 'Confirm and finish' }).click();
    await expect(appBlock.getByText('Your authenticator app is set up.')).toBeVisible();

    // A senior agent finds him by email address with a reason and sees the app among his factors.
    await signInToConsole(page, request, staff.senior);
    await page.getByRole('radio', { name: 'Email address' }).check();
    await page.getByRole('textbox', { name: 'Email address' }).fill(hywel.email);
    await page.getByRole('textbox', { name: 'Reason' }).fill('CALL-E2E-0052');
    await page.getByRole('button', { name: 'Search' }).click();
    await openOnlyResult(page, hywel.name, 'CALL-E2E-0052');
    const glance = page.getByRole('region', { name: 'At a glance' });
    await expect(glance).toContainText('Authenticator app');

    // The removal asks what to remove, the identity check and a reason; sent, he is emailed.
    const actions = page.getByRole('region', { name: 'Help this customer' });
    await actions.getByRole('button', { name: 'Remove second factors' }).click();
    const panel = page.getByRole('region', { name: 'Remove second factors' });
    await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
    await expect(panel.getByRole('textbox', { name: 'Reason' })).toHaveValue('CALL-E2E-0052');
    await panel.getByRole('checkbox', { name: 'Authenticator app' }).check();
    await panel.getByRole('checkbox', { name: 'I have checked who I am speaking to' }).check();
    await panel.getByRole('textbox', { name: 'Reason' }).fill('CALL-E2E-0052 lost phone');
    await expectConsoleScreen(page);
    const sentFrom = Date.now() - 1000;
    await panel.getByRole('button', { name: 'Remove' }).click();
    const done = actions.getByRole('alert').filter({ hasText: 'Done' });
    await expect(done).toContainText('We have removed what you chose and emailed the customer.');
    await expect(done).toBeFocused();
    await expect(glance).not.toContainText('Authenticator app');
    await expect(actions.getByRole('button', { name: 'Remove second factors' })).toHaveCount(0);
    await expectConsoleScreen(page);

    // The security email, as for his own removal: its subject and an HTML part.
    let email: Awaited<ReturnType<typeof emailsTo>>[number] | undefined;
    await expect
      .poll(
        async () => {
          email = (await emailsTo(request, hywel.email)).find(
            (m) => m.kind === 'security-app-removed' && Date.parse(m.createdAt) >= sentFrom,
          );
          return email !== undefined;
        },
        { message: 'the email that the app was removed', timeout: 15_000 },
      )
      .toBe(true);
    expect(email!.subject).toBe('An authenticator app was removed from your account');
    expect(email!.html).toContain('The authenticator app was removed from your online account');

    // On his own browser the app is gone, and his activity says who removed it.
    await customer.page.reload();
    await expect(appBlock.getByText('Not set up')).toBeVisible();
    await customer.page.getByRole('link', { name: 'See your account activity' }).click();
    await expect(customer.page.locator('.account-activity__title').first()).toHaveText(
      'Our contact centre removed a way to sign in',
    );
  } finally {
    await customer.close();
  }
});
