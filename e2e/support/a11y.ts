import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core in the page as it stands. What counts as a finding:
 * - any violation axe rates serious or critical (contrast, names of buttons and fields, ...);
 * - the structural rules, whatever their rating, since a screen-reader user finds their way by
 *   them: every page has one main landmark and one first-level heading, content sits inside a
 *   landmark, headings do not skip levels, landmarks of one kind are told apart by their names.
 */
const STRUCTURE_RULES = new Set([
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-unique',
  'page-has-heading-one',
  'heading-order',
  'region',
]);

/**
 * Waits until no CSS transition or finite animation runs: a modal or toast still fading in has
 * the wrong contrast. Endless ones (a loader's spin, a pulsing dot) never finish, so they are
 * not waited for.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

/**
 * Pauses the endless animations `settle` leaves running (the bell's pulsing dot on every page of
 * an agent with unread notifications, a loader's spin) and returns how to resume them. axe reads
 * styles and positions element by element (colour contrast above all), and a running animation
 * invalidates them every frame: on two shared cores the same scan took 3.5-10 s with the bell's
 * dot pulsing against 1.5-4 s with it paused. A pulse is decoration; what axe checks is the same.
 */
async function pauseEndlessAnimations(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const paused = document.getAnimations().filter((animation) => animation.playState === 'running');
    for (const animation of paused) animation.pause();
    (window as PausedForAxe).pausedForAxe = paused;
  });
  return () =>
    page.evaluate(() => {
      for (const animation of (window as PausedForAxe).pausedForAxe ?? [])
        if (animation.playState === 'paused') animation.play();
      (window as PausedForAxe).pausedForAxe = undefined;
    });
}

type PausedForAxe = { pausedForAxe?: Animation[] };

/** One line per rule and element found wrong on the page, labelled with `where`; empty if none. */
export async function axeFindings(page: Page, where: string): Promise<string[]> {
  await settle(page);
  const resume = await pauseEndlessAnimations(page);
  const { violations } = await new AxeBuilder({ page })
    // Legacy mode runs axe in the page itself. The default mode runs it in parts and finishes in a
    // blank page it opens for each scan, so that cross-origin frames can be tested: the portal
    // has none, and that page cost about a second a scan here (130 scans a run). axe's rules are
    // the same either way.
    .setLegacyMode(true)
    // Only violations are read: listing every passing node costs time on a large page.
    .options({ resultTypes: ['violations'] })
    .analyze()
    .finally(resume);
  return violations
    .filter((rule) => rule.impact === 'serious' || rule.impact === 'critical' || STRUCTURE_RULES.has(rule.id))
    .flatMap((rule) =>
      rule.nodes.map(
        (node) =>
          `${where}: ${rule.id} (${rule.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
      ),
    );
}

/** The whole page as a PNG, named as the README and the reviewers expect. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir('test-results/screenshots', { recursive: true });
  await settle(page);
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}
