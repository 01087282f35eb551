// The npm registry reachable from our machines lacks most of Biome's per-platform CLI packages
// (only linux-x64 and linux-arm64 are there). `npm install` then leaves them out of
// package-lock.json and `npm ci` refuses the lock ("Missing: @biomejs/cli-... from lock file").
// This writes their lock entries with Biome's real os/cpu/libc constraints: npm ci skips them on
// Linux and fetches them normally elsewhere. Run it after changing the Biome version.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'android-arm64': { os: ['android'], cpu: ['arm64'] },
  'android-x64': { os: ['android'], cpu: ['x64'] },
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'linux-arm64': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64': { os: ['win32'], cpu: ['x64'] },
};

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const biome = lock.packages['node_modules/@biomejs/biome'];
let added = 0;
for (const [platform, constraints] of Object.entries(PLATFORMS)) {
  const key = `node_modules/@biomejs/cli-${platform}`;
  if (lock.packages[key]?.version === biome.version) continue;
  lock.packages[key] = {
    version: biome.version,
    ...constraints,
    dev: true,
    license: biome.license,
    optional: true,
    engines: biome.engines,
  };
  added++;
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  `Biome ${biome.version}: ${added} platform entr${added === 1 ? 'y' : 'ies'} added to package-lock.json`,
);
