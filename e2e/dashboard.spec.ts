import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { contentPage } from './support/content';
import { expect, test } from './support/fixtures';
import { expectPdfAbout, expectScreenAtEverySize, phone } from './support/screens';
import { chunkName, readManifest, routeRows } from '../bench/support/route-bundles';
import { demo, logoutModal, signIn, signOutButton, toDashboardPastMarketingStep } from './auth-helpers';

/*
 * The customer data half against the real server and the seeded portfolio (README, "Demo sign-in"):
 * Helen has nine policies across every group, Margaret a home policy with 23 valuables and the policy
 * system's actions, James nothing yet but a welcome message. Every screen, with its dialogs, is scanned by
 * axe at 1280 and 390 pixels wide and has nothing wider than the screen at 1024, 768 and 375.
 */

const helen = {
  email: 'helen.dawson@example.co.uk',
  password: 'ShropshireHills1968',
  phone: { number: '07700900333', radio: 'Text message to +44 XXXX XXX333' },
};
const james = {
  email: 'james.carter@example.co.uk',
  password: 'WeaversRowHexham90',
  phone: { number: '07700900222', radio: 'Text message to +44 XXXX XXX222' },
};
const margaret = {
  ...demo.margaret,
  phone: { number: demo.margaret.mobile, radio: demo.margaret.textRadio },
};

interface NavItem {
  title: string;
  url: string;
  group?: string;
  requiresAuthentication?: boolean;
  children?: NavItem[];
}

/** The main menu's signed-in items from content (navigation.json), children included. */
function signedInNavItems(): NavItem[] {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'content', 'navigation.json');
  const nav = JSON.parse(readFileSync(file, 'utf8')) as { header: NavItem[] };
  return nav.header
    .filter((item) => item.group === 'main' && item.requiresAuthentication)
    .flatMap((item) => [item, ...(item.children ?? [])]);
}

/** Texts of the not-found, error and unknown pages, and of a policy that is not found. */
const errorTexts =
  /cannot find that policy|Page not found|Something went wrong|This page cannot be shown|technical problem/i;

/** Waits until the page's own loading texts have gone. */
async function loaded(page: Page) {
  await expect(
    page
      .locator('main')
      .getByRole('status')
      .filter({ hasText: /^Loading/ }),
  ).toHaveCount(0);
}

/** A polite live region (aria-live) that says `text`. */
const announcement = (page: Page, text: string | RegExp) =>
  page.locator('[aria-live="polite"]').filter({ hasText: text });

const policiesSection = (page: Page) => page.getByRole('region', { name: 'Your policies' });
const policyCards = (page: Page) => policiesSection(page).getByRole('listitem');

test.describe('dashboard and policies', () => {
  // Long journeys, every screen scanned by axe at two widths and laid out at five: one to two minutes
  // on a busy two-core machine.
  test.describe.configure({ timeout: 240_000 });

  // Helen's welcome-back message is shown once: the journey that sees it runs first, the other after it.
  test.describe.serial('Helen', () => {
    test('Helen: renewals, policies by group with load more, a policy, its cover and documents, her bills', async ({
      page,
      request,
    }) => {
      await page.clock.install();
      await page.goto('/login');
      await signIn(page, request, helen, helen.phone);
      await expect(page).toHaveURL(/\/account\/dashboard$/);

      // The welcome-back (splash) message is inside its date window: shown once, then closed.
      const splash = page.getByRole('dialog', { name: 'New: read your renewal documents online' });
      await expect(splash).toBeVisible();
      await expectScreenAtEverySize(page);
      await splash.getByRole('button', { name: 'Not now' }).click();
      await expect(splash).toBeHidden();

      await expect(page.getByRole('heading', { level: 1 })).toContainText('Helen');
      const renewals = page.getByRole('region', { name: 'Policies due for renewal' });
      await expect(
        renewals.getByRole('heading', { name: 'Fine Art and Collectables Insurance' }),
      ).toBeVisible();

      // Six in force (five active and one renewing): three shown, then three more.
      await expect(policiesSection(page).getByText('6 active policies available to view')).toBeVisible();
      await expect(policyCards(page)).toHaveCount(3);
      await expect(page.getByRole('button', { name: 'Active (6)', pressed: true })).toBeVisible();
      await page.getByRole('button', { name: 'Show more policies' }).click();
      await expect(policyCards(page)).toHaveCount(6);
      await expect(page.getByRole('button', { name: 'Show more policies' })).toHaveCount(0);
      // Five minutes after the last "load more", the grid is back to three.
      await page.clock.fastForward('05:01');
      await expect(policyCards(page)).toHaveCount(3);

      await page.getByRole('button', { name: 'Expired (2)' }).click();
      await expect(policyCards(page)).toHaveCount(2);
      await page.getByRole('button', { name: 'Upcoming (1)' }).click();
      await expect(policyCards(page)).toHaveCount(1);
      await expect(policyCards(page).first()).toContainText('Valuables Insurance');
      await page.getByRole('button', { name: 'Active (6)' }).click();
      await page.getByRole('button', { name: 'Show more policies' }).click();

      // Quotes and the agency.
      await expect(
        page
          .getByRole('region', { name: 'Your quotes' })
          .getByRole('definition')
          .filter({ hasText: '708Q90000004' }),
      ).toBeVisible();
      await expect(page.getByRole('region', { name: 'Your local office' })).toBeVisible();
      await expectScreenAtEverySize(page);

      // One policy: its details, its cover, its documents.
      await policiesSection(page)
        .getByRole('link', { name: /View policy Home Insurance 708X1000001/ })
        .click();
      await expect(page).toHaveURL(/\/account\/policies\/?\?id=708X1000001$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('708X1000001');
      const details = page.getByRole('region', { name: 'Policy details' });
      await expect(details.getByText('Home Insurance', { exact: true }).first()).toBeVisible();
      await expect(details.getByText('Main policyholder')).toBeVisible();
      await expect(details.getByText(/^£[\d,]+(\.\d\d)?$/)).toBeVisible();
      await expectScreenAtEverySize(page);

      await page.getByRole('link', { name: 'What you are covered for' }).click();
      await expect(page).toHaveURL(/\/account\/policies\/cover\/?\?id=708X1000001$/);
      await expect(page.getByText('Home cover: buildings and contents')).toBeVisible();
      await expectScreenAtEverySize(page);

      await page.getByRole('link', { name: 'Documents', exact: true }).click();
      await expect(page).toHaveURL(/\/account\/policies\/documents\/?\?id=708X1000001$/);
      const download = page.waitForEvent('download');
      await page
        .getByRole('button', { name: /^Download / })
        .first()
        .click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/708X1000001.*\.pdf$/i);
      await expectPdfAbout(file, '708X1000001');
      await expectScreenAtEverySize(page);

      // Bills and payments: two accounts, newest first, more at "Show more bills", each a PDF.
      await page.getByRole('link', { name: 'Bills and payments' }).first().click();
      await expect(page).toHaveURL(/\/account\/bills-and-payments$/);
      await expect(page.getByRole('heading', { name: /^Billing account BA/ }).first()).toBeVisible();
      const bills = page.getByRole('button', { name: /^View PDF/ });
      await expect(bills).toHaveCount(10);
      await page.getByRole('button', { name: 'Show more bills' }).click();
      await expect.poll(() => bills.count()).toBeGreaterThan(10);
      // The first account's first bill: a PDF for that account.
      const firstAccount = await page
        .getByRole('heading', { name: /^Billing account BA/ })
        .first()
        .textContent();
      const accountNumber = /BA\d+/.exec(firstAccount ?? '')?.[0] ?? 'no account number';
      const bill = page.waitForEvent('download');
      await bills.first().click();
      expect((await bill).suggestedFilename()).toMatch(/BA\d+\.pdf$/);
      await expectPdfAbout(await bill, accountNumber);
      await expectScreenAtEverySize(page);

      // The same pages on a phone, loaded at that size: the dashboard, and a document downloaded there.
      await page.setViewportSize(phone);
      await expectNoSeriousA11yViolations(page);
      await page.goto('/account/dashboard');
      await expect(policyCards(page)).toHaveCount(3);
      await expectNoSeriousA11yViolations(page);
      await page.goto('/account/policies/documents/?id=708X1000001');
      const onPhone = page.waitForEvent('download');
      await page
        .getByRole('button', { name: /^Download / })
        .first()
        .click();
      await expectPdfAbout(await onPhone, '708X1000001');
      await expectNoSeriousA11yViolations(page);
    });

    test('Helen, issue 23: every menu item shows her data; "Your policies" lists them; load more moves focus to what it added', async ({
      page,
      request,
    }) => {
      await page.goto('/login');
      await signIn(page, request, helen, helen.phone);
      await expect(page).toHaveURL(/\/account\/dashboard$/);
      // The welcome-back message was shown (and so marked) in the journey before this one.
      await expect(page.getByRole('dialog', { name: 'New: read your renewal documents online' })).toHaveCount(
        0,
      );

      // "Your policies" from the main menu: her policies by group, each opening its overview. The item
      // says how many of her policy documents are new (issue 40).
      await page
        .locator('#main-menu')
        .getByRole('link', { name: /^Your policies( \d+ new)?$/ })
        .click();
      await expect(page).toHaveURL(/\/account\/policies\/?$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Your policies' })).toBeVisible();
      await expect(page).toHaveTitle('Your policies – Meridian Mutual');
      for (const group of ['Active', 'Upcoming', 'Expired'])
        await expect(page.getByRole('heading', { level: 2, name: group })).toBeVisible();
      const expired = page.getByRole('region', { name: 'Expired' });
      await expect(expired.getByRole('link')).toHaveCount(2);
      await expect(page.getByRole('region', { name: 'Active' }).getByRole('link')).toHaveCount(6);
      await expect(page.getByText(errorTexts)).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
      await page.getByRole('link', { name: /708X1000001/ }).click();
      await expect(page).toHaveURL(/\/account\/policies\/?\?id=708X1000001$/);
      await expect(page.getByRole('region', { name: 'Policy details' })).toBeVisible();

      // Every signed-in menu item from content: a heading, some of her data, no error text.
      for (const item of signedInNavItems()) {
        await page.goto(item.url);
        await expect(page, item.title).toHaveURL(new RegExp(`${item.url.replace(/\//g, '\\/')}\\/?$`));
        await expect(page.getByRole('heading', { level: 1 }), item.title).toBeVisible();
        await loaded(page);
        await expect(page.getByText(errorTexts), item.title).toHaveCount(0);
        const shown = page.locator('main').locator('section, ul, dl, form, fieldset, .policy-list');
        await expect(shown.first(), `${item.title} shows something beyond its heading`).toBeVisible();
        await expectNoSeriousA11yViolations(page);
      }

      // Dashboard: "Show more policies" moves focus to the fourth card and says three were added.
      await page.goto('/account/dashboard');
      const cards = page.getByRole('region', { name: 'Your policies' }).getByRole('listitem');
      await expect(cards).toHaveCount(3);
      await page.getByRole('button', { name: 'Show more policies' }).focus();
      await page.keyboard.press('Enter');
      await expect(cards).toHaveCount(6);
      await expect(cards.nth(3)).toBeFocused();
      await expect(announcement(page, 'More policies shown: 3')).toHaveCount(1);
      await expectNoSeriousA11yViolations(page);

      // Bills: "Show more bills" moves focus to a bill it added, not to the page body.
      await page.goto('/account/bills-and-payments');
      const rows = page.locator('.document-row');
      await expect(rows).toHaveCount(10);
      const before = await rows.locator('.document-row__name').allTextContents();
      await page.getByRole('button', { name: 'Show more bills' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => rows.count()).toBeGreaterThan(10);
      const focused = page.locator('li.document-row:focus');
      await expect(focused).toHaveCount(1);
      expect(before).not.toContain(await focused.locator('.document-row__name').textContent());
      const added = (await rows.count()) - before.length;
      await expect(announcement(page, `More bills shown: ${added}`)).toHaveCount(1);
      await expectNoSeriousA11yViolations(page);
    });
  });

  test('Margaret: valuables capped at 20, the policy system behind an interstitial, her details, contact us, no one else’s policy', async ({
    page,
    request,
  }) => {
    // Her cover page asked for while signed out: sign-in first, then that page (spec §4).
    await page.goto(`/account/policies/cover/?id=${margaret.policyNumber}`);
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, request, margaret, margaret.phone);
    await expect(page).toHaveURL(new RegExp(`/account/policies/cover/?\\?id=${margaret.policyNumber}$`));

    // Opened afresh, the page says in its own words that it is loading the policy: the full-page loader's
    // message shows once, not a second time in the page under it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      `**/api/v1/policy/*/${margaret.policyNumber}*`,
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.reload();
    const loading = contentPage('account-policies-cover.json').messages?.['loadingMessage'] ?? 'in content';
    await expect(page.locator('main').getByRole('status')).toHaveText(loading);
    await expect(
      page.locator('main').getByText("Thank you for being patient. We're just loading your details."),
    ).toHaveCount(0);
    release();

    const valuables = page.getByRole('group').filter({ hasText: 'Valuables away from home' });
    await valuables.getByRole('heading', { name: 'Valuables away from home' }).click();
    await expect(valuables.locator('.cover-item')).toHaveCount(20);
    await expect(
      valuables.getByText('For a full list of your valuables please see your documents'),
    ).toBeVisible();
    await expectScreenAtEverySize(page);

    // Request a change: the bespoke interstitial, which Cancel closes.
    await page.getByRole('link', { name: /Request a change/ }).click();
    const bespoke = page.getByRole('dialog', { name: 'Request a change to your policy' });
    await expect(bespoke).toBeVisible();
    await expectScreenAtEverySize(page);
    await bespoke.getByRole('button', { name: 'Cancel' }).click();
    await expect(bespoke).toBeHidden();

    // Make a change online: the standard interstitial, continuing to the policy system (the local stand-in).
    await page.goto(`/account/policies?id=${margaret.policyNumber}`);
    await page.getByRole('link', { name: /Make a change online/ }).click();
    const leaving = page.getByRole('dialog', { name: 'You are leaving your account pages' });
    await expect(leaving).toBeVisible();
    const href = await leaving.getByRole('link', { name: /Continue/ }).getAttribute('href');
    expect(href).toContain(`policy=${margaret.policyNumber}`);
    const standIn = await request.get(href!);
    expect(standIn.status()).toBe(200);
    expect(await standIn.text()).toContain(margaret.policyNumber);
    await expectScreenAtEverySize(page);
    // Continue opens the policy system in a new tab: the stand-in names the action and the policy.
    const opened = page.waitForEvent('popup');
    await leaving.getByRole('link', { name: /Continue/ }).click();
    const policySystem = await opened;
    await expect(
      policySystem.getByRole('heading', { level: 1, name: 'Make a change to your policy' }),
    ).toBeVisible();
    await expect(policySystem.getByText(margaret.policyNumber)).toBeVisible();
    await policySystem.close();

    // Her details.
    await page.goto('/profile/personal-details');
    await expect(page.getByRole('definition').filter({ hasText: '17/04/1952' })).toBeVisible();
    await expectScreenAtEverySize(page);
    await page.goto('/profile/contact-details');
    await expect(page.getByRole('term').filter({ hasText: 'Home phone number' })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: margaret.landline })).toBeVisible();
    await expectScreenAtEverySize(page);

    // Contact us: the primary answer from ?primary=, a failed send keeps the text, then the success page.
    await page.goto('/contact-us?primary=0');
    await expect(page.getByRole('radio', { name: 'Home insurance' })).toBeChecked();
    await page.getByRole('radio', { name: 'I need to make a claim' }).check();
    await expect(page.getByRole('link', { name: 'Start a claim' })).toBeVisible();
    await page.getByRole('radio', { name: 'I am moving house' }).check();
    const messageBox = page.getByRole('textbox', { name: 'Your message' });
    await messageBox.fill('We move to Rose Cottage, Ledbury on 1 March.');
    await expect(page.getByText('You have 456 characters remaining')).toBeVisible();
    await expectScreenAtEverySize(page);
    await page.route('**/api/v1/messaging/contact/**', (route) => route.abort());
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('alert')).toContainText('Sorry, we could not send your message');
    await expect(messageBox).toHaveValue('We move to Rose Cottage, Ledbury on 1 March.');
    await page.unroute('**/api/v1/messaging/contact/**');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page).toHaveURL(/\/contact-us\/message-sent$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Message sent' })).toBeVisible();
    await expectScreenAtEverySize(page);
    const inbox = await request.get('/dev/outbox/api?to=customer.service%40portal.example.co.uk&limit=5');
    expect(JSON.stringify(await inbox.json())).toContain('Rose Cottage, Ledbury');

    // Another customer's policy number reads as not found.
    await page.goto('/account/policies?id=708X1000001');
    await expect(page.getByText('We cannot find that policy in your account.')).toBeVisible();
    await expectScreenAtEverySize(page);
  });

  test('James: the welcome message once, the empty dashboard, his details and preferences', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, request, james, james.phone);
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    const welcome = page.getByRole('dialog', { name: 'Everything about your cover, in one place' });
    await expect(welcome).toBeVisible();
    await expectScreenAtEverySize(page);
    await welcome.getByRole('button', { name: 'Close welcome message' }).click();
    await expect(welcome).toBeHidden();
    await expect(page.getByRole('heading', { name: 'We cannot find any policies' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'You have no saved quotes' })).toBeVisible();
    await expectScreenAtEverySize(page);

    // Reloaded, the dashboard's settings, navigation and content page come with its HTML (decision 017): the
    // page asks the content service for nothing.
    const contentCalls: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/api/v1/content/get')) contentCalls.push(r.url());
    };
    page.on('request', onRequest);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'We cannot find any policies' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    page.off('request', onRequest);
    expect(contentCalls).toEqual([]);

    // No landline held: the contact details show no landline row.
    await page.goto('/profile/contact-details');
    await expect(page.getByRole('definition').filter({ hasText: james.email })).toBeVisible();
    await expect(page.getByRole('term').filter({ hasText: 'Home phone number' })).toHaveCount(0);
    await expectScreenAtEverySize(page);

    // Preferences: tailored offers off and documents by post, both still so after a reload.
    await page.goto('/profile/preferences');
    const save = page.getByRole('button', { name: 'Save marketing preferences' });
    await expect(page.getByRole('radio', { name: 'Yes, show me tailored offers' })).toBeChecked();
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    await expectScreenAtEverySize(page);
    await page.getByRole('checkbox', { name: 'Email' }).check();
    await page.getByRole('radio', { name: 'No, thank you' }).check();
    await save.click();
    await expect(page.getByText('Your marketing preferences have been saved.')).toBeVisible();
    await expect(page.getByText('You currently get your documents online.')).toBeVisible();
    const saveDocuments = page.getByRole('button', { name: 'Save document preference' });
    // aria-disabled, not disabled: pressing it says what is missing.
    await saveDocuments.click({ force: true });
    await expect(page.getByText('Tick the box to confirm the change')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Send my documents by post' }).check();
    await saveDocuments.click();
    await expect(page.getByText('Your document preference has been saved.')).toBeVisible();
    await expectScreenAtEverySize(page);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'No, thank you' })).toBeChecked();
    // A channel is set now, so the channels are no longer offered (spec §4).
    await expect(page.getByRole('checkbox', { name: 'Email', exact: true })).toHaveCount(0);
    await expect(page.getByText('You currently get your documents by post to:')).toBeVisible();
    // On paper, being emailed of new documents is his to choose (issue 40), as are texts to his mobile.
    await expect(page.getByRole('checkbox', { name: 'By email' })).not.toBeChecked();
    await expect(
      page.getByRole('checkbox', { name: 'By text message to +44 XXXX XXX222' }),
    ).not.toBeChecked();
  });
});

/** The app's script files the page asks for from now on (`assets/name-hash.js`), in order, repeats kept. */
function scriptsFetched(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (/^\/assets\/[^/]+\.js$/.test(pathname)) fetched.push(pathname.slice(1));
  });
  return fetched;
}

test('the dashboard fetches exactly the code the bundle report counts for it; the token client only to renew', async ({
  page,
  request,
}) => {
  // The report's rule (bench/support/route-bundles.ts, decision 029), read from the build this server serves.
  const dashboard = routeRows(readManifest()).find((r) => r.route === '/account/dashboard')!;
  const counted = dashboard.jsFiles.map((f) => f.file).sort();
  const onDemand = (chunk: string) =>
    dashboard.onDemand.find((o) => o.chunk === chunk)?.files.map((f) => f.file) ?? [];
  const tokenClient = onDemand('token-client');
  expect(tokenClient.map(chunkName)).toEqual(expect.arrayContaining(['token-client', 'vendor-oidc']));
  expect(counted.map(chunkName)).not.toContain('forms');

  await page.goto('/login');
  await signIn(page, request, margaret, margaret.phone);
  await toDashboardPastMarketingStep(page);

  // Opened afresh (a reload, as from a bookmark in this tab): every file it counts, and nothing else.
  const fetched = scriptsFetched(page);
  await page.reload();
  await expect(policiesSection(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect([...new Set(fetched)].sort()).toEqual(counted);

  // An access token that expired while the tab slept: the next start renews it, loading the token client
  // then, and the customer stays signed in.
  fetched.length = 0;
  await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
    const user = JSON.parse(sessionStorage.getItem(key)!) as { expires_at: number };
    user.expires_at = Math.floor(Date.now() / 1000) - 60;
    sessionStorage.setItem(key, JSON.stringify(user));
  });
  await page.reload();
  await expect(policiesSection(page)).toBeVisible();
  await expect(signOutButton(page)).toBeVisible();
  expect(fetched).toEqual(expect.arrayContaining(tokenClient));

  // Signing out fetches the provider call's code only now.
  fetched.length = 0;
  await signOutButton(page).click();
  await logoutModal(page).getByRole('button', { name: 'Yes, sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(fetched).toEqual(expect.arrayContaining(onDemand('end-current-session')));
});
