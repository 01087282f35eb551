import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { CLIENT_FILES_WITH_MODULE_MOCKS } from '../vitest.config';

const ROOT = path.resolve(import.meta.dirname, '..');

async function clientTestFiles(dir = 'client'): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await clientTestFiles(relative)));
    else if (/\.test\.tsx?$/.test(entry.name)) found.push(relative);
  }
  return found;
}

test('the client files that mock modules are exactly those run isolated (vitest.config.ts)', async () => {
  // The shared client project would run a new file with vi.mock against modules another file
  // loaded unmocked: it must be listed so that it runs in client-mocks instead.
  const mocking: string[] = [];
  for (const file of await clientTestFiles()) {
    if (/\bvi\.(do)?mock\(/.test(await readFile(path.join(ROOT, file), 'utf8'))) mocking.push(file);
  }
  expect(mocking.length).toBeGreaterThan(0);
  expect([...CLIENT_FILES_WITH_MODULE_MOCKS].sort()).toEqual(mocking.sort());
});
