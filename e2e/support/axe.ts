import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/*
 * A page without frames (every page of the portal) is scanned in axe's legacy mode: axe runs in the page
 * itself, in one call. The default mode opens a blank page for each scan, injects axe there as well and
 * gathers the frames' results in it: about twice the cost of the scan. Legacy mode leaves out what is in a
 * frame, so a page with one is scanned the default way.
 */
const builderFor = (page: Page) => new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);

/** The WCAG 2.2 AA rule sets (axe tags); best-practice rules are left out, they are not requirements. */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * Every page's title follows one pattern (WCAG 2.4.2, issue 15): "{page} – Meridian Mutual", the page first,
 * no other separator. Checked with every axe scan, so every screen the journeys check has it.
 */
async function expectTitlePattern(page: Page) {
  await expect(page).toHaveTitle(/^(?!.*\s[-|]\s)\S.* – Meridian Mutual$/);
}

function report(violations: readonly Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n'),
    )
    .join('\n');
}

/**
 * Runs axe on the page as it is now and fails on any serious or critical WCAG 2.2 AA violation, listing
 * each rule with the elements that break it (and checks the title's pattern first). `exclude` takes CSS
 * selectors of parts that are not ours.
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { exclude?: string[] } = {}) {
  await expectTitlePattern(page);
  let builder = builderFor(page).withTags(wcagTags);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `Accessibility violations on ${page.url()}:\n${report(serious)}`).toEqual([]);
}

/**
 * The public (signed-out) pages, where a customer first meets the portal (issue 15): every rule axe runs
 * (WCAG A and AA of every version and the best-practice rules: landmarks, skip links, headings), and
 * any finding fails, whatever its impact, minor included.
 */
export async function expectNoA11yFindingsAtAnyLevel(page: Page) {
  await expectTitlePattern(page);
  const results = await builderFor(page).analyze();
  expect(
    results.violations,
    `Accessibility findings on ${page.url()}:\n${report(results.violations)}`,
  ).toEqual([]);
}
