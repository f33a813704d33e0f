import { createHash } from 'node:crypto';
import { expectNoA11yFindingsAtAnyLevel } from './support/axe';
import { contentPage, footerLinks, publicPages, siteSettings } from './support/content';
import { expectReadable } from './support/contrast';
import { expect, test } from './support/fixtures';

/**
 * The shell a visitor meets before signing in: the redirect to sign-in, the sign-in page, a content-only
 * page reached from the footer, an address that does not exist, and deep links that survive a reload.
 * Texts come from content/, as the portal's do.
 */
const login = contentPage('login.json');
const accessibility = contentPage('help-accessibility.json');
const help = contentPage('help.json');
const notFoundHeading = siteSettings().commonTexts?.['notFoundHeading'] ?? 'Page not found';

test('the site root sends a visitor to sign in', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: login.heading })).toBeVisible();
  await expectNoA11yFindingsAtAnyLevel(page);
});

test('the sign-in page comes with its settings and security headers, and no inline script but its submit guard', async ({
  page,
}) => {
  const response = await page.goto('/login');
  expect(response?.status()).toBe(200);
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['cache-control']).toBe('no-cache');

  await expect(page.getByRole('heading', { level: 1, name: login.heading })).toBeVisible();
  await expect(page).toHaveTitle(`${login.meta?.title ?? ''} – Meridian Mutual`);
  await expect(page.locator('meta[name="portal-settings"]')).toHaveCount(1);
  // The one inline script is the submit guard (decision 031), allowed by its hash and nothing else.
  const inline = page.locator('script:not([src]):not([type="application/json"])');
  await expect(inline).toHaveCount(1);
  const guardHash = createHash('sha256')
    .update((await inline.textContent()) ?? '')
    .digest('base64');
  expect(headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${guardHash}';`);
  await expectNoA11yFindingsAtAnyLevel(page);
  // Sign in waits for the email and password, and is easy to read while it waits.
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await expect(signIn).toHaveAttribute('aria-disabled', 'true');
  await expectReadable(signIn);
});

test('a content page opens from the footer and survives a reload', async ({ page }) => {
  const link = footerLinks().find((l) => l.url === accessibility.url);
  expect(link, 'the footer links to the accessibility statement').toBeTruthy();
  await page.goto('/login');
  await page.getByRole('contentinfo').getByRole('link', { name: link!.title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${accessibility.url}$`));
  await expect(page.getByRole('heading', { level: 1, name: accessibility.heading })).toBeVisible();
  await expectNoA11yFindingsAtAnyLevel(page);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: accessibility.heading })).toBeVisible();

  // Its breadcrumbs lead up to the help page.
  await page
    .getByRole('navigation', { name: /breadcrumb/i })
    .getByRole('link', { name: 'Help' })
    .click();
  await expect(page).toHaveURL(new RegExp(`${help.url}$`));
  await expect(page.getByRole('heading', { level: 1, name: help.heading })).toBeVisible();
  await expectNoA11yFindingsAtAnyLevel(page);
});

test('an address that does not exist shows the not-found page', async ({ page }) => {
  const response = await page.goto('/no-such-page-anywhere');
  // Neither content's nor the app's: the server answers 404 with the not-found page (e2e/not-found.spec.ts).
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: notFoundHeading })).toBeVisible();
  await expectNoA11yFindingsAtAnyLevel(page);
});

// The content pages of the footer and help, and the error pages; the sign-in, registration and password
// pages are checked the same way by their journeys, in each of their states. Run by both projects: at the
// desktop size and at the phone's.
test('every public content page passes every axe rule, at any impact', async ({ page }) => {
  test.setTimeout(90_000);
  const addresses = publicPages()
    .filter((p) => ['StandardPageTemplate', 'ErrorPage', 'MaintenancePage'].includes(p.type))
    .map((p) => p.url);
  expect(addresses.length).toBeGreaterThan(5);
  for (const address of [...addresses, '/no-such-page-anywhere']) {
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoA11yFindingsAtAnyLevel(page);
  }
});

for (const viewport of [
  { name: 'a phone', width: 390, height: 844 },
  { name: 'a desktop', width: 1280, height: 800 },
]) {
  test(`on ${viewport.name}, scrolling down slides the header up by the spec's 82 px, and back on scrolling up`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/help/accessibility');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const header = page.getByRole('banner');
    const top = () => header.evaluate((h) => Math.round(h.getBoundingClientRect().top));
    const logo = header.getByRole('link', { name: /home$/ });
    const helpLink = header.locator('.site-header__help').getByRole('link');
    await expect.poll(top).toBe(0);

    await page.mouse.wheel(0, 600);
    await expect(header).toHaveClass(/site-header--hidden/);
    // By 82 px exactly (spec §9), not by the whole header: the logo bar goes, the help strip stays.
    await expect.poll(top, { message: 'the header top, scrolled down' }).toBe(-82);
    await expect(logo).not.toBeInViewport();
    await expect(helpLink).toBeInViewport();
    await expectNoA11yFindingsAtAnyLevel(page);

    await page.mouse.wheel(0, -200);
    await expect(header).not.toHaveClass(/site-header--hidden/);
    await expect.poll(top, { message: 'the header top, scrolled up' }).toBe(0);
    await expect(logo).toBeInViewport();
  });
}

test('every page opens with its intro in one size, at one distance from the heading', async ({ page }) => {
  const intros: Record<string, string> = {};
  for (const address of [
    '/login',
    '/register',
    '/forgotten-password',
    '/help',
    '/error',
    '/no-such-page-anywhere',
  ]) {
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    intros[address] = await page.evaluate(() => {
      const heading = document.querySelector('main h1');
      const intro = document.querySelector('main .page__intro');
      const text = intro?.querySelector('p') ?? intro;
      if (!heading || !text) return 'no intro';
      const gap = Math.round(text.getBoundingClientRect().top - heading.getBoundingClientRect().bottom);
      return `${getComputedStyle(text).fontSize}, ${gap}px below the heading`;
    });
  }
  const first = intros['/login'];
  expect(first).not.toBe('no intro');
  expect(intros).toEqual(Object.fromEntries(Object.keys(intros).map((address) => [address, first])));
});

test('hashed assets are cached for a year and sent compressed', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/assets/') && r.url().endsWith('.js')) scripts.push(r.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: login.heading })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  const asset = await request.get(scripts[0]!, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toMatch(/^(br|gzip)$/);
});

test("the sign-in page's own code comes with the app, each file fetched once", async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/assets/')) requested.push(new URL(r.url()).pathname);
  });
  const response = await page.goto('/login');
  // The HTML names the page's code, so the browser starts on it before the app asks for it.
  const preloads = await page
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
  expect(preloads.some((href) => /\/assets\/login-page-[\w-]+\.js$/.test(href))).toBe(true);
  expect(await response!.text()).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/login-page-/);
  await expect(page.getByRole('heading', { level: 1, name: login.heading })).toBeVisible();
  const twice = requested.filter((file, i) => requested.indexOf(file) !== i);
  expect(twice, 'files fetched more than once').toEqual([]);
});

test('pages reflow at 320 CSS pixels (400% zoom): nothing needs scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const address of [
    '/login',
    '/register',
    '/forgotten-password',
    '/help',
    '/help/faqs',
    '/no-such-page',
  ]) {
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return Array.from(document.querySelectorAll('body *'))
        .filter((el) => el.getBoundingClientRect().right > width + 1)
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    });
    expect(overflow, `${address}: elements wider than the screen`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  }
});
