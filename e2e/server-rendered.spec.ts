import { expectNoSeriousA11yViolations } from './support/axe';
import { contentPage } from './support/content';
import type { Page } from '@playwright/test';
import { demo } from './auth-helpers';
import { expect, test } from './support/fixtures';

/**
 * The public pages arrive rendered (issue 15, decision 016): their heading and form are in the HTML the
 * server sends, so a phone paints them before any JavaScript has arrived, and the SPA then takes them over
 * where they stand (hydration) without painting them again or changing what they show.
 */
const pages = [
  { path: '/login', page: contentPage('login.json'), field: 'Email address' },
  { path: '/register', page: contentPage('register.json'), field: 'Email address' },
  { path: '/forgotten-password', page: contentPage('forgotten-password.json'), field: 'Email address' },
  { path: '/help', page: contentPage('help.json'), field: undefined },
];

for (const { path, page: content, field } of pages) {
  test(`${path} shows its heading${field ? ' and its form' : ''} before any of its JavaScript has arrived`, async ({
    page,
  }) => {
    // The app's code never arrives: what shows is the HTML and its inline styles alone.
    await page.route(/\/assets\/.+\.js$/, () => undefined);
    await page.goto(path, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1, name: content.heading })).toBeVisible();
    // The page's own title first, then the site's name (the pattern the app sets, lib/use-document-title).
    const own = (content.meta?.title ?? content.heading ?? '').replace(/\s*[-–|]\s*Meridian Mutual$/, '');
    await expect(page).toHaveTitle(
      new RegExp(`^${own.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b.*Meridian Mutual$`),
    );
    if (field) await expect(page.getByLabel(field, { exact: true }).first()).toBeVisible();
    // Not the loader that the SPA's own page paints while its code loads.
    await expect(page.getByText("We're just loading your details")).toBeHidden();
    await page.unroute(/\/assets\/.+\.js$/);
  });
}

test('the sign-in page is taken over where it stands: the same nodes, the same experiment variant, no repaint', async ({
  page,
}) => {
  const reactErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Minified React error|hydrat/i.test(message.text()))
      reactErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { shifts: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // Hold the app's code back, to see the page as a phone on a slow connection does before it arrives.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  const heading = page.getByRole('heading', { level: 1, name: contentPage('login.json').heading });
  await expect(heading).toBeVisible();
  const variant = await page.locator('[data-experiment]').getAttribute('data-variant');
  const serverTitle = await page.title();
  const serverBox = await heading.boundingBox();
  expect(['control', 'reassurance']).toContain(variant);
  // Mark the server's nodes: hydration keeps them, a fresh render would replace them.
  await page.evaluate(() => {
    document.querySelector('h1')?.setAttribute('data-from-server', 'yes');
  });

  release();
  // Hydrated: typing into the form is seen by the app (its field-level check answers on blur).
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
      ),
    )
    .toBe(true);
  await expect(page.locator('h1[data-from-server="yes"]')).toHaveCount(1);
  await expect(page).toHaveTitle(serverTitle);
  // Nothing moved when the app took over (the header's space is the same before and after), not even
  // for a frame.
  expect(await heading.boundingBox()).toEqual(serverBox);
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
  // The page reports the variant seen, as the flag SDK would, without downloading the SDK.
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[data-experiment]')).toHaveAttribute('data-variant', variant!);
  expect(
    await page.evaluate(() =>
      (window as unknown as { dataLayer?: Array<Record<string, unknown>> }).dataLayer?.filter(
        (e) => e['event'] === 'experimentViewed',
      ),
    ),
  ).toEqual([{ event: 'experimentViewed', experimentId: 'login-intro-variant', variationId: variant }]);
  expect(await page.evaluate(() => localStorage.getItem('experimentUserId'))).toMatch(/^[0-9a-f-]{36}$/);
  expect(reactErrors).toEqual([]);
  await expectNoSeriousA11yViolations(page);

  // The same visitor gets the same variant on the next visit.
  await page.unroute(/\/assets\/index-[\w-]+\.js$/);
  await page.reload();
  await expect(page.locator('[data-experiment]')).toHaveAttribute('data-variant', variant!);
});

test('the sign-in page works before the schema library and the content calls have arrived, and signs in once they have', async ({
  page,
}) => {
  // What the page needs only for its calls (issue 15): held back, as on a slow connection.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const startUp = /\/assets\/(vendor-zod|content-calls|contracts)-[\w-]+\.js$/;
  const asked: string[] = [];
  await page.route(startUp, async (route) => {
    asked.push(new URL(route.request().url()).pathname);
    await held;
    await route.continue();
  });
  await page.goto('/login');
  // Taken over: the app answers the Show button (the server's markup alone would not).
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('NotHerPassword99');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  release();
  await page.getByRole('textbox', { name: 'Email address' }).fill('nobody-here@example.org');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The call waited for page init, then went: the service's answer is on the page.
  await expect(page.getByRole('alert')).toContainText('The email address or password is not right');
  expect(asked.some((p) => p.includes('vendor-zod'))).toBe(true);
});

test('a rendered page works as the SPA: a link moves the router, and the next page needs no new HTML', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(
    page.getByRole('heading', { level: 1, name: contentPage('login.json').heading }),
  ).toBeVisible();
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page
    .getByRole('link', { name: /register/i })
    .first()
    .click();
  await expect(
    page.getByRole('heading', { level: 1, name: contentPage('register.json').heading }),
  ).toBeVisible();
  expect(documents).toEqual([]);
});

/**
 * On a slow phone the form is on screen seconds before the app's code: people type, and password managers
 * fill, in the meantime. What they typed is kept when the app takes the page over, and a form sent before
 * is held (never sent natively, which would put the password into the address) and sent once the app has
 * it (decision 031).
 */
async function holdTheApp(page: Page) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const addresses: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) addresses.push(frame.url());
  });
  return { release, addresses };
}

function hydrated(page: Page) {
  return expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
      ),
    )
    .toBe(true);
}

test('sign-in details filled and sent before the app arrived are kept, never put in the address, and sent once it has', async ({
  page,
}) => {
  const app = await holdTheApp(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Email address' }).fill(demo.margaret.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.margaret.password);
  // Enter in the password box sends the form, as a customer would once their password manager has filled it.
  await page.getByLabel('Password', { exact: true }).press('Enter');
  // Held: still the sign-in page, with what was typed, and nothing in the address.
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveValue(demo.margaret.email);
  // The press is seen to be taken: Sign in is busy and shows a spinner, as a sending button does.
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await expect(signIn).toHaveAttribute('aria-busy', 'true');
  // It no longer looks unavailable (the page was rendered with empty fields): it is the green of a button
  // that can be pressed.
  expect(
    await signIn.evaluate((button) => {
      const spinner = getComputedStyle(button, '::before');
      return {
        content: spinner.content,
        animation: spinner.animationName,
        width: spinner.width,
        background: getComputedStyle(button).backgroundColor,
      };
    }),
  ).toEqual({ content: '""', animation: 'ui-spin', width: '18px', background: 'rgb(0, 112, 60)' });

  app.release();
  // Once the app has the page, the press is made with what was typed: her password was right.
  await expect(page).toHaveURL(/\/login\/verify$/, { timeout: 20_000 });
  await expect(page.getByRole('radio', { name: demo.margaret.textRadio, exact: true })).toBeVisible();
  for (const address of app.addresses) {
    expect(address).not.toContain(encodeURIComponent(demo.margaret.password));
    expect(address).not.toContain('password=');
    expect(new URL(address).search).toBe('');
  }
});

test('registration details typed before the app arrived are kept: the form is complete when it takes over', async ({
  page,
}) => {
  const app = await holdTheApp(page);
  await page.goto('/register', { waitUntil: 'commit' });
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await expect(continueButton).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('textbox', { name: 'Email address' }).fill('eleanor.hughes@example.co.uk');
  await page.getByRole('textbox', { name: 'Date of birth' }).fill('25/11/1978');
  await page.getByRole('textbox', { name: 'Postcode' }).fill('EX39 2QQ');
  const terms = page.getByRole('checkbox', { name: 'I have read and agree to the terms of use' });
  await terms.check();

  app.release();
  await hydrated(page);
  // The app has every value: Continue is available, and a later render (here: leaving a field) keeps them.
  await expect(continueButton).not.toHaveAttribute('aria-disabled');
  await page.getByRole('textbox', { name: 'Postcode' }).press('Tab');
  await expect(page.getByRole('textbox', { name: 'Email address' })).toHaveValue(
    'eleanor.hughes@example.co.uk',
  );
  await expect(page.getByRole('textbox', { name: 'Date of birth' })).toHaveValue('25/11/1978');
  await expect(page.getByRole('textbox', { name: 'Postcode' })).toHaveValue('EX39 2QQ');
  await expect(terms).toBeChecked();
  await expect(continueButton).not.toHaveAttribute('aria-disabled');
  await expectNoSeriousA11yViolations(page);
});

test('a reset request sent before the app arrived with a wrong address shows what to fix once it has', async ({
  page,
}) => {
  const app = await holdTheApp(page);
  await page.goto('/forgotten-password', { waitUntil: 'commit' });
  const emailBox = page.getByRole('textbox', { name: 'Email address' });
  await emailBox.fill('thomas.reid@');
  await page.getByRole('button', { name: 'Send reset link' }).click({ force: true });
  await expect(page).toHaveURL(/\/forgotten-password$/);

  app.release();
  // The held press, made with what was typed: the summary says what to fix, and the address is still there.
  await expect(page.getByRole('alert')).toContainText('Enter an email address in the correct format');
  await expect(emailBox).toHaveValue('thomas.reid@');
  expect(app.addresses.every((address) => new URL(address).search === '')).toBe(true);
});
