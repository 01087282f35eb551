import { test as base } from '@playwright/test';

export type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
export { expect } from '@playwright/test';

/**
 * Playwright's `test`, which also closes every browser context a test opened itself
 * (`browser.newContext()`) when the test ends, pass or fail. The browser lives as long as the
 * worker, so a context left open kept its pages running the portal (a WebSocket, refetches,
 * animations) until the end of the run: 35 live renderers by the page tours drove the load
 * average to 11 on two cores, and every later journey ran two or three times slower.
 */
export const test = base.extend<{ closeOwnContexts: undefined }>({
  closeOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});
