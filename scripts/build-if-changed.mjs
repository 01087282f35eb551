// `npm start` builds only when something the build reads changed since the last build: a restart
// of an unchanged checkout skips the ~40 s build. The inputs' digest (paths and contents) is kept in
// dist/ after a successful build; `npm run build` itself always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `npm run build` reads: the sources, the schema, the configs, the build scripts, the lock. */
export const BUILD_INPUTS = [
  'client',
  'server',
  'shared',
  'prisma',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig.json',
  'postcss.config.cjs',
  'prisma.config.ts',
  'scripts/build-server.mjs',
  'scripts/check-bundle-budget.mjs',
  'scripts/precompress.mjs',
  'scripts/prisma-wasm-from-file.mjs',
];
/** A build that lost one of these (a deleted dist/server) is built again, whatever the stamp says. */
export const BUILD_OUTPUTS = ['dist/server/main.js', 'dist/client/index.html'];
export const STAMP = 'dist/.build-inputs';

// Never bundled: editing a test does not call for a build.
const NOT_READ_BY_THE_BUILD = /\.test\.[cm]?[jt]sx?$/;

async function filesUnder(root, entry) {
  const full = path.join(root, entry);
  let children;
  try {
    children = await readdir(full, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOTDIR') return [entry];
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  const found = [];
  for (const child of children) {
    const relative = path.join(entry, child.name);
    if (child.name === 'node_modules') continue;
    if (child.isDirectory()) found.push(...(await filesUnder(root, relative)));
    else if (child.isFile() && !NOT_READ_BY_THE_BUILD.test(child.name)) found.push(relative);
  }
  return found;
}

/** SHA-256 over every input file's path and bytes, in a fixed order. */
export async function inputsDigest(root, inputs = BUILD_INPUTS) {
  const files = [];
  for (const input of inputs) files.push(...(await filesUnder(root, input)));
  files.sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(await readFile(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const exists = (file) =>
  access(file).then(
    () => true,
    () => false,
  );

/** Whether to build, and why; `digest` is what the stamp holds once that build succeeds. */
export async function buildDecision(
  root,
  { inputs = BUILD_INPUTS, outputs = BUILD_OUTPUTS, stamp = STAMP } = {},
) {
  const digest = await inputsDigest(root, inputs);
  const stamped = await readFile(path.join(root, stamp), 'utf8').catch(() => null);
  if (stamped === null) return { build: true, reason: 'no earlier build', digest };
  for (const output of outputs)
    if (!(await exists(path.join(root, output))))
      return { build: true, reason: `${output} is missing`, digest };
  if (stamped.trim() !== digest) return { build: true, reason: 'the sources changed', digest };
  return { build: false, reason: 'the sources are unchanged since the last build', digest };
}

export const writeStamp = (root, digest, stamp = STAMP) => writeFile(path.join(root, stamp), `${digest}\n`);

async function main() {
  const root = process.cwd();
  const decision = await buildDecision(root);
  if (!decision.build) {
    console.log(`Build skipped: ${decision.reason} (npm run build forces one)`);
    return;
  }
  console.log(`Building: ${decision.reason}`);
  // A build that fails halfway leaves no stamp that would pass it off as complete.
  await rm(path.join(root, STAMP), { force: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const built = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  await writeStamp(root, decision.digest);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
