import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe';

/**
 * The sizes the signed-in screens are checked at (issues 11 and 12): axe at a phone (390 wide) and a
 * desktop (1280), and the layout at 375, 768 and 1024 wide, where nothing may be wider than the screen.
 */
export const phone = { width: 390, height: 844 };
export const desktop = { width: 1280, height: 800 };
const reflowSizes = [
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
  { width: 375, height: 667 },
];

/** Elements that reach past the right edge of the screen, and how wide the page scrolls. */
async function overflow(page: Page): Promise<{ wider: string[]; scrollWidth: number }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wider = Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`);
    return { wider, scrollWidth: document.documentElement.scrollWidth };
  });
}

async function expectNoOverflow(page: Page, width: number): Promise<void> {
  // A resize re-renders what reads the media queries: the layout is checked once it has settled.
  await expect
    .poll(() => overflow(page), { message: `${page.url()} at ${width}px: elements wider than the screen` })
    .toEqual({ wider: [], scrollWidth: width });
}

/**
 * Checks the screen as it is now (a page, or a page with a dialog open) at every size: axe at the
 * desktop width, nothing wider than the screen at 1024, 768 and 375, then axe at the phone width, and
 * back to the size it started at. The screen stays as it was (no reload), so dialogs opened once per
 * customer (welcome, splash) are checked at both widths too.
 */
export async function expectScreenAtEverySize(page: Page, options: { exclude?: string[] } = {}) {
  const start = page.viewportSize() ?? desktop;
  if (start.width !== desktop.width) await page.setViewportSize(desktop);
  await expectNoSeriousA11yViolations(page, options);
  for (const size of reflowSizes) {
    await page.setViewportSize(size);
    await expectNoOverflow(page, size.width);
  }
  await page.setViewportSize(phone);
  await expectNoOverflow(page, phone.width);
  await expectNoSeriousA11yViolations(page, options);
  await page.setViewportSize(start);
}

/**
 * A downloaded file is a real PDF about the right thing: its name and its bytes (the document's
 * title in the PDF's information dictionary) carry `reference`, and it starts with the PDF header.
 */
export async function expectPdfAbout(download: Download, reference: string): Promise<void> {
  expect(download.suggestedFilename()).toContain(reference);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/i);
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(1000);
  expect(bytes.toString('latin1')).toContain(reference);
}
