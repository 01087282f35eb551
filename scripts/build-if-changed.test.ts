import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDecision, writeStamp } from './build-if-changed.mjs';

/** `npm start`'s decision to build, on a small project written into a temporary folder. */

const options = {
  inputs: ['server', 'package-lock.json'],
  outputs: ['dist/server/main.js'],
  stamp: 'dist/.build-inputs',
};
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'build-stamp-'));
  await mkdir(path.join(root, 'server', 'db'), { recursive: true });
  await mkdir(path.join(root, 'dist', 'server'), { recursive: true });
  await writeFile(path.join(root, 'server', 'main.ts'), 'console.log("main")');
  await writeFile(path.join(root, 'server', 'db', 'client.ts'), 'export const db = 1;');
  await writeFile(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}');
  await writeFile(path.join(root, 'dist', 'server', 'main.js'), 'built');
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** What a successful build leaves: the stamp of the inputs it read. */
async function built() {
  const { digest } = await buildDecision(root, options);
  await writeStamp(root, digest, options.stamp);
}

describe('build only when the inputs changed', () => {
  it('no stamp: build', async () => {
    expect(await buildDecision(root, options)).toMatchObject({ build: true, reason: 'no earlier build' });
  });

  it('the same inputs since the last build: skip', async () => {
    await built();
    expect(await buildDecision(root, options)).toMatchObject({ build: false });
  });

  it('a changed, added or removed file, or a changed lock: build', async () => {
    await built();
    await writeFile(path.join(root, 'server', 'db', 'client.ts'), 'export const db = 2;');
    expect(await buildDecision(root, options)).toMatchObject({ build: true, reason: 'the sources changed' });
    await built();
    await writeFile(path.join(root, 'server', 'db', 'new.ts'), '');
    expect((await buildDecision(root, options)).build).toBe(true);
    await built();
    await rm(path.join(root, 'server', 'db', 'new.ts'));
    expect((await buildDecision(root, options)).build).toBe(true);
    await built();
    await writeFile(path.join(root, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
    expect((await buildDecision(root, options)).build).toBe(true);
  });

  it('a file renamed with the same bytes: build', async () => {
    await built();
    await rm(path.join(root, 'server', 'db', 'client.ts'));
    await writeFile(path.join(root, 'server', 'db', 'clients.ts'), 'export const db = 1;');
    expect((await buildDecision(root, options)).build).toBe(true);
  });

  it('a test file changed: no build (the build never reads one)', async () => {
    await writeFile(path.join(root, 'server', 'main.test.ts'), 'test 1');
    await built();
    await writeFile(path.join(root, 'server', 'main.test.ts'), 'test 2');
    expect((await buildDecision(root, options)).build).toBe(false);
  });

  it('an output missing: build, whatever the stamp says', async () => {
    await built();
    await rm(path.join(root, 'dist', 'server', 'main.js'));
    expect(await buildDecision(root, options)).toMatchObject({
      build: true,
      reason: 'dist/server/main.js is missing',
    });
  });
});
