// The browser suite, as run by `npm test` (after the other tests) and `npm run test:e2e`.
// It needs Debian's Chromium; when there is none, `npm test` says how to get it and carries on,
// while `npm run test:e2e` (--require-browser) fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const required = process.argv.includes('--require-browser');
const passThrough = process.argv.slice(2).filter((arg) => arg !== '--require-browser');

if (!existsSync(chromium)) {
  const message =
    `Browser tests need Chromium at ${chromium} and it is not there.\n` +
    '  Debian/Ubuntu: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)\n' +
    '  Do not use `npx playwright install`: it downloads a browser this project does not use.';
  if (required) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`\nSkipping the browser tests. ${message}\n`);
  process.exit(0);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The browser tests run the built server: built now unless nothing it is built from changed since
// the last build (`npm start` in the server tests may just have built it).
run('node', ['scripts/build-if-changed.mjs']);
run('npx', ['playwright', 'test', ...passThrough]);
