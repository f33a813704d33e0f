import { test as base, expect } from '@playwright/test';

/**
 * `test` with a guard every journey gets: the test fails if the page breaks the Content Security Policy
 * (for example an inline script or style) or throws an uncaught error. Import test and expect from here.
 */
export const test = base.extend<{ pageProblems: string[] }>({
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
