import type { Page, Request } from '@playwright/test';
import { readManifest } from '../bench/support/route-bundles';
import { signedInPrefetch, signedInWay } from '../scripts/page-chunks.mjs';
import { expectNoA11yFindingsAtAnyLevel, expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import {
  completeChallenge,
  demo,
  enterCode,
  enterCredentials,
  signIn,
  signOut,
  signOutButton,
  watchOutbox,
} from './auth-helpers';

/*
 * Sign-in journeys against the real server and seeded demo customers: codes come from the dev outbox.
 * Margaret has a mobile and a landline and chose her marketing preferences long ago, so she lands on her
 * dashboard; David has a landline only (5-digit voice code) and is asked for marketing choices first.
 */

const { margaret, david } = demo;

interface Script {
  file: string;
  /** A prefetch (Chromium sends `Sec-Purpose: prefetch`), known once the request's headers are read. */
  prefetch: Promise<boolean>;
  askedAt: number;
  answeredAt?: number;
}

/** The app's scripts (`assets/name-hash.js`) the page asks for from now on, in order. */
function watchScripts(page: Page): Script[] {
  const scripts: Script[] = [];
  const file = (request: Request) => new URL(request.url()).pathname.slice(1);
  page.on('request', (request) => {
    if (!/^assets\/[^/]+\.js$/.test(file(request))) return;
    const prefetch = request.allHeaders().then((headers) => headers['sec-purpose'] === 'prefetch');
    scripts.push({ file: file(request), prefetch, askedAt: Date.now() });
  });
  page.on('requestfinished', (request) => {
    const entry = scripts.findLast((s) => s.file === file(request) && s.answeredAt === undefined);
    if (entry) entry.answeredAt = Date.now();
  });
  return scripts;
}

/** The scripts asked for so far, as prefetches and not. */
async function scriptsByKind(scripts: readonly Script[]) {
  const kinds = await Promise.all(scripts.map((s) => s.prefetch));
  return {
    prefetched: scripts.filter((_, i) => kinds[i]),
    fetched: scripts.filter((_, i) => !kinds[i]).map((s) => s.file),
  };
}

/** Up to the challenge page with a voice call to Margaret's landline (five boxes). */
async function landlineChallenge(page: Page) {
  await enterCredentials(page, margaret.email, margaret.password);
  await page.getByRole('radio', { name: margaret.landlineCallRadio, exact: true }).check();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
}

test.describe('sign in', () => {
  // One after another: several of these read codes sent to the same phone. Full journeys take a while.
  test.describe.configure({ mode: 'default', timeout: 90_000 });

  test('with a text message code, every screen passing axe', async ({ page, request }) => {
    const scripts = watchScripts(page);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);

    const phone = await watchOutbox(request, margaret.mobile);
    await enterCredentials(page, margaret.email, margaret.password);
    await expect(page).toHaveURL(/\/login\/verify$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Get a security code' })).toBeVisible();
    // Masked numbers only: the full number never reaches the page.
    await expect(page.getByRole('radio', { name: margaret.textRadio, exact: true })).toBeVisible();
    await expect(page.getByRole('radio', { name: margaret.mobileCallRadio, exact: true })).toBeVisible();
    await expect(page.getByRole('radio', { name: margaret.landlineCallRadio, exact: true })).toBeVisible();
    await expect(page.getByText(margaret.mobile.slice(1))).toHaveCount(0);
    await expectNoA11yFindingsAtAnyLevel(page);

    await page.getByRole('radio', { name: margaret.textRadio, exact: true }).check();
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
    await expect(page.getByRole('textbox', { name: /^Digit \d of 6$/ })).toHaveCount(6);
    await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveAttribute(
      'autocomplete',
      'one-time-code',
    );

    // While the customer reads the message, the page fetches ahead the scripts of the pages after
    // Continue (decision 033): the build's list, less what it has already, each once, as prefetches
    // (fetched at the lowest priority into the cache, not run), and only once its own token client is in.
    const ahead = signedInPrefetch(readManifest(), signedInWay());
    expect(ahead.length).toBeGreaterThan(10);
    await expect
      .poll(async () => {
        const { prefetched, fetched } = await scriptsByKind(scripts);
        const here = new Set([...prefetched.map((s) => s.file), ...fetched]);
        return ahead.filter((f) => !here.has(f));
      })
      .toEqual([]);
    const { prefetched, fetched } = await scriptsByKind(scripts);
    const aheadFiles = prefetched.map((s) => s.file);
    expect(aheadFiles.length).toBeGreaterThan(10);
    expect(aheadFiles.filter((f) => fetched.includes(f))).toEqual([]);
    expect(new Set(aheadFiles).size).toBe(aheadFiles.length);
    expect(aheadFiles.filter((f) => !ahead.includes(f))).toEqual([]);
    const tokenClient = scripts.find((s) => /^assets\/vendor-oidc-/.test(s.file));
    expect(tokenClient?.answeredAt, 'the token client arrived').toEqual(expect.any(Number));
    expect(Math.min(...prefetched.map((s) => s.askedAt))).toBeGreaterThanOrEqual(tokenClient!.answeredAt!);
    await expect(page.locator('link[rel="prefetch"][as="script"][crossorigin="anonymous"]')).toHaveCount(
      aheadFiles.length,
    );
    await expectNoA11yFindingsAtAnyLevel(page);

    // After Continue the browser leaves for the identity provider and comes back to a new page: the
    // scripts fetched ahead come from the cache, none of them over the network again.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const overNetwork: string[] = [];
    cdp.on('Network.responseReceived', ({ response }) => {
      if (!response.fromDiskCache && !response.fromPrefetchCache && !response.fromServiceWorker)
        overNetwork.push(new URL(response.url).pathname.slice(1));
    });
    await completeChallenge(page, phone);
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole('region', { name: 'Your policies' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(overNetwork.filter((f) => aheadFiles.includes(f))).toEqual([]);
    await cdp.detach();
    await expect(signOutButton(page)).toBeVisible();
    // Tokens are in this tab's session storage only.
    const stores = await page.evaluate(() => ({
      local: Object.keys(localStorage).filter((k) => k.startsWith('oidc.')),
      session: Object.keys(sessionStorage).filter((k) => k.startsWith('oidc.user:')),
      flag: sessionStorage.getItem('authenticated'),
    }));
    expect(stores).toEqual({ local: [], session: [expect.any(String)], flag: '1' });
    await expectNoSeriousA11yViolations(page);

    // The identity provider's browser session exists (its cookie is the browser's, as for the page)...
    expect((await page.request.get('/api/v1/sessions/me')).status()).toBe(200);
    await signOut(page);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('You have signed out.')).toBeVisible();
    // ...and signing out ended it at the provider, not only in the page.
    expect((await page.request.get('/api/v1/sessions/me')).status()).toBe(404);
    // The provider session is gone too: going back to the dashboard needs a new sign-in.
    await page.goto('/account/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('with a voice call code to a landline: five boxes', async ({ page, request }) => {
    await page.goto('/login');
    const phone = await watchOutbox(request, david.landline);
    await enterCredentials(page, david.email, david.password);
    await expect(page).toHaveURL(/\/login\/verify$/);
    // David has only a landline: the call is already chosen.
    await expect(page.getByRole('radio', { name: david.landlineCallRadio, exact: true })).toBeChecked();
    await expect(page.getByRole('radio', { name: /Text message/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
    await expect(page.getByText(/We are calling \+44 XXXX XXX789 now/)).toBeVisible();
    // The help speaks of the call, not of text messages.
    await expect(page.getByText(/If you missed the call or did not catch the code/)).toBeVisible();
    await expect(page.getByText(/text message/i)).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: /^Digit \d of 5$/ })).toHaveCount(5);
    await completeChallenge(page, phone);
    // Signed in, at the marketing step (account root) or, once chosen, the dashboard.
    await expect(page).toHaveURL(/\/account(\/dashboard)?$/);
    await expect(signOutButton(page)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('with a wrong password: the message, the email kept and the password cleared', async ({ page }) => {
    await page.goto('/login');
    await enterCredentials(page, margaret.email, 'NotHerPassword99');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('The email address or password is not right');
    await expect(alert).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveValue(margaret.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    // One error pattern: the summary only; no page-level or inline error under fields that were filled in.
    await expect(page.getByText('Enter your email address and password to sign in.')).toHaveCount(0);
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
    await expectNoA11yFindingsAtAnyLevel(page);
  });

  test('with a wrong code first, then the right one', async ({ page, request }) => {
    await page.goto('/login');
    const phone = await watchOutbox(request, margaret.landline);
    await landlineChallenge(page);
    const right = await phone.next();
    const wrong = right.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    await enterCode(page, wrong);
    await page.getByRole('button', { name: 'Continue' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('That code is not right or has expired');
    for (let i = 1; i <= 5; i += 1)
      await expect(page.getByRole('textbox', { name: `Digit ${i} of 5` })).toHaveValue('');
    await expectNoA11yFindingsAtAnyLevel(page);

    await enterCode(page, right);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/account\/dashboard$/, { timeout: 20_000 });
  });

  test('asking for a new code: unavailable for 30 seconds of the page clock, then the server decides', async ({
    page,
    request,
  }) => {
    await page.clock.install();
    await page.goto('/login');
    const phone = await watchOutbox(request, margaret.landline);
    await landlineChallenge(page);
    const sentAt = Date.now();
    await phone.next();

    // Hold the page's time still, so only the test moves it (a second on, as pausing cannot go back).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const resend = page.getByRole('button', { name: 'Send a new code' });
    await expect(resend).toHaveAttribute('aria-disabled', 'true');
    // The visible countdown describes the button: about 30 seconds, then 10 fewer 10 seconds later.
    const waitText = /^You can ask for a new code in (\d+) seconds$/;
    await expect(resend).toHaveAccessibleDescription(waitText);
    const described = await resend.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
    );
    const left = Number(waitText.exec(described)?.[1]);
    expect(left).toBeGreaterThanOrEqual(25);
    expect(left).toBeLessThanOrEqual(30);
    await page.clock.fastForward(10_000);
    await expect(resend).toHaveAccessibleDescription(`You can ask for a new code in ${left - 10} seconds`);
    // Pressing it while it waits does nothing.
    await resend.click({ force: true });
    await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
    await expect(page.getByText('We have sent you a new code.')).toHaveCount(0);

    // The rest of the page's 30 seconds pass on its clock, not in real time: the button is available.
    await page.clock.fastForward((left - 10) * 1000 + 500);
    await expect(resend).not.toHaveAttribute('aria-disabled');
    await expect(resend).not.toHaveAccessibleDescription(/seconds/);

    // The server keeps its own limit (one code per 30 seconds) on its real clock, whatever the page's
    // clock says: pressing now is refused, and a refused resend ends the journey (spec section 8) with
    // the sign-in page's message. (A resend the server accepts is proved by the page's component test
    // and the identity service's tests, which move their clocks.)
    expect(Date.now() - sentAt, "the server's 30 seconds have not passed in real time").toBeLessThan(25_000);
    const answer = page.waitForResponse((r) => /\/verify\/resend$/.test(new URL(r.url()).pathname));
    await resend.click();
    expect((await answer).status()).toBe(429);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(/There have been too many attempts/)).toBeVisible();
    await page.clock.resume();
  });

  test('a deep link to a policy page while signed out comes back to it after sign-in', async ({
    page,
    request,
  }) => {
    const address = `/account/policies?id=${margaret.policyNumber}`;
    await page.goto(address);
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, request, margaret, { number: margaret.mobile, radio: margaret.textRadio });
    await expect(page).toHaveURL(new RegExp(`${address.replace('?', '\\?')}$`));
  });
});
