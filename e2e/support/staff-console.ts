import type { APIRequestContext, Page } from '@playwright/test';
import { watchOutbox } from '../auth-helpers';
import { expectNoSeriousA11yViolations } from './axe';
import { expect } from './fixtures';

/*
 * The staff console's journeys (staff.spec.ts, staff-actions.spec.ts): the demo staff of the stand-in
 * workforce provider, signing in with the code it emails, and each console screen checked with axe at a
 * desktop's width and at 320 px.
 */

const desktop = { width: 1280, height: 800 };
const narrow = { width: 320, height: 720 };
const STAND_IN_PASSWORD = 'StandIn-Console-2026';

/** The stand-in provider's demo staff, one a role. */
export const staff = {
  agent: { name: 'Alex Morgan', email: 'alex.morgan@staff.example.co.uk' },
  senior: { name: 'Priya Shah', email: 'priya.shah@staff.example.co.uk' },
  auditor: { name: 'Tom Ellis', email: 'tom.ellis@staff.example.co.uk' },
  editor: { name: 'Sam Carter', email: 'sam.carter@staff.example.co.uk' },
  publisher: { name: 'Jo Hughes', email: 'jo.hughes@staff.example.co.uk' },
  operator: { name: 'Ravi Patel', email: 'ravi.patel@staff.example.co.uk' },
};

/** Elements reaching past the right edge (those inside a region that scrolls on its own aside). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wider = Array.from(document.querySelectorAll('body *'))
      .filter((el) => !el.closest('.staff-table-scroll') || el.classList.contains('staff-table-scroll'))
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`);
    return { wider, scrollWidth: document.documentElement.scrollWidth };
  });
}

/** The screen as it is now: axe at a desktop's width, then at 320 px with nothing wider than the screen. */
export async function expectConsoleScreen(page: Page) {
  await page.setViewportSize(desktop);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize(narrow);
  await expect
    .poll(() => overflow(page), { message: `${page.url()} at 320px: elements wider than the screen` })
    .toEqual({ wider: [], scrollWidth: narrow.width });
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize(desktop);
}

/**
 * Opens a console page without a session: the console sends the browser to sign in, the stand-in asks for
 * the work email, the password and the code it emails, and the browser comes back to the page. Journeys
 * running side by side may sign the same staff member in at once: if the code read was the other
 * sign-in's (this one refuses it), the next new message is tried.
 */
export async function signInToConsole(
  page: Page,
  request: APIRequestContext,
  who: { name: string; email: string },
  path = '/staff/',
) {
  const outbox = await watchOutbox(request, who.email);
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Sign in to the staff console' })).toBeVisible();
  await page.getByLabel('Work email address').fill(who.email);
  await page.getByLabel('Password').fill(STAND_IN_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Enter the code we emailed you' })).toBeVisible();
  const back = new RegExp(`${path.replace(/[/]/g, '\\/')}$`);
  for (let attempt = 0; ; attempt += 1) {
    await page.getByLabel('6-digit code').fill(await outbox.next());
    await page.getByRole('button', { name: 'Sign in' }).click();
    const wrong = page.getByText('That code is not right.');
    const outcome = await Promise.race([
      page.waitForURL(back, { timeout: 20_000 }).then(() => 'signed-in' as const),
      wrong.waitFor({ timeout: 20_000 }).then(() => 'wrong' as const),
    ]);
    if (outcome === 'signed-in') break;
    if (attempt === 2) throw new Error('no code from the outbox was accepted');
  }
  await expect(page).toHaveURL(back);
  await expect(page.getByRole('banner')).toContainText(who.name);
}
