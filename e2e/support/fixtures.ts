import { createHash } from 'node:crypto';
import { test as base, expect } from '@playwright/test';

/**
 * `test` with what every journey gets. Import test and expect from here.
 * - A guard: the test fails if the page breaks the Content Security Policy (for example an inline script
 *   or style) or throws an uncaught error.
 * - A network of its own: the portal limits code sends and failed sign-ins per client address (30 an hour),
 *   which one machine running every journey from 127.0.0.1 would soon reach, as no real customers do. The
 *   test server trusts one proxy (TRUST_PROXY=1, playwright.config.ts), and each journey's browser says it
 *   comes from its own private address (X-Forwarded-For), as customers on their own networks do.
 */
export const test = base.extend<{ pageProblems: string[]; clientAddress: string }>({
  clientAddress: [
    async ({ context }, use, testInfo) => {
      const h = createHash('sha256')
        .update(`${testInfo.project.name}:${testInfo.testId}:${testInfo.retry}`)
        .digest();
      const address = `10.${h[0]}.${h[1]}.${(h[2]! % 254) + 1}`;
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': address });
      await use(address);
    },
    { auto: true },
  ],
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
          problems.push(`CSP: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`Uncaught: ${error.message}`));
      await use(problems);
      expect(problems, 'the page broke the CSP or threw').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
