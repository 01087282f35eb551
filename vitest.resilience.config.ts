import { defineConfig } from 'vitest/config';

/**
 * `npm run test:resilience`: the fault run and the load run against
 * the built server in a process of its own. Minutes long, so outside the everyday suite: the
 * main config matches `*.test.ts` only, never these `*.resilience.ts` files.
 */
export default defineConfig({
  test: {
    name: 'resilience',
    include: ['server/resilience/**/*.resilience.ts'],
    environment: 'node',
    globalSetup: ['server/resilience/global-setup.ts'],
    // One file at a time within a run: the load figures would be meaningless with a fault run
    // beside it. `npm run test:resilience` (scripts/test-resilience.mjs) starts a second run
    // only for files that measure nothing (the job engine beside the two instances).
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
