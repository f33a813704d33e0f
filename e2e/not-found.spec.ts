import { demo, signIn } from './auth-helpers';
import { expectNoSeriousA11yViolations } from './support/axe';
import { siteSettings } from './support/content';
import { expect, test } from './support/fixtures';

/**
 * An address that does not exist (issue 23, point 12): the server answers 404 with the not-found page
 * rendered (no "turn on JavaScript", no wait for the content service), the app takes it over without
 * asking content for it, and signing in from there opens the dashboard, not the mistyped address. A real
 * deep link to a signed-in page is still kept for after sign-in.
 */
const { margaret } = demo;
const notFoundHeading = siteSettings().commonTexts?.['notFoundHeading'] ?? 'Page not found';

test('a mistyped link is a 404 with the not-found page; signing in from it opens the dashboard', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const mistyped = '/acount/dashbord';
  const pageLookups: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.endsWith('/content/getByRelativeUrl'))
      pageLookups.push(url.searchParams.get('relativeUrl') ?? '');
  });

  const response = await page.goto(mistyped);
  expect(response?.status()).toBe(404);
  const html = (await response?.text()) ?? '';
  // Rendered by the server: readable before (and without) any JavaScript.
  expect(html).toContain(`>${notFoundHeading}</h1>`);
  expect(html).not.toContain('turn on JavaScript');
  await expect(page.getByRole('heading', { level: 1, name: notFoundHeading })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${notFoundHeading}`));
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'sign in to your account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, request, margaret, { number: margaret.mobile, radio: margaret.textRadio });
  await expect(page).toHaveURL(/\/account\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: notFoundHeading })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // The app never asked the content service for the address the server had answered 404.
  expect(pageLookups.filter((relativeUrl) => relativeUrl.toLowerCase().includes('dashbord'))).toEqual([]);
});

test('a deep link to a real signed-in page is answered 200 and still opens after sign-in', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const address = `/account/policies/cover?id=${margaret.policyNumber}`;
  const response = await page.goto(address);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  await expectNoSeriousA11yViolations(page);
  await signIn(page, request, margaret, { number: margaret.mobile, radio: margaret.textRadio });
  await expect(page).toHaveURL(new RegExp(`${address.replace('?', '\\?')}$`));
  await expect(page.getByRole('heading', { level: 1, name: notFoundHeading })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
