/**
 * Debian's Chromium and its switches, for the browser suite (playwright.config.ts) and the browser
 * benchmarks (bench/lib/browser.ts) alike: no sandbox (root in a container), no GPU, no chatter.
 * Never `npx playwright install`: the apt package is the browser this project uses (see README).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
