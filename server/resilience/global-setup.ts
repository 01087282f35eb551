import { buildServerBundle } from '../test/built-server';

/**
 * The fault and load runs drive dist/server/main.js, the bundle production runs; build it from
 * the working tree first so a run never measures a stale bundle (and works from a clean clone).
 */
export default async function setup() {
  // scripts/test-resilience.mjs builds it once before it starts two runs at once.
  if (process.env.RESILIENCE_SERVER_BUILT === '1') return;
  await buildServerBundle();
}
