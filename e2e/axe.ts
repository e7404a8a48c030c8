// axe-core in the page (@axe-core/playwright), as every browser test that checks accessibility runs it.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe on the page, run inside the page itself ("legacy mode"): by default each analysis opens a blank page of its own
 * to merge the results of cross-origin frames, which our pages do not have, and that page is a large part of each
 * analysis's cost, on a suite whose length is its CPU. Only violations are reported element by element (axe's
 * `resultTypes`): the same rules run on the same elements, but the passes and the incomplete results, which no test
 * reads, are not built and sent back node by node, which was a third of each analysis's CPU on our dashboard pages.
 */
export const axeOn = (page: Page) =>
  new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });

/** WCAG 2.1 A and AA and axe's best practices: the serious and critical violations, each with its first elements. */
export async function seriousViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  let builder = axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}
