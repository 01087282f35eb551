import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every package package-lock.json installs runs on the oldest Node the project supports
 * (package.json `engines`), so `npm ci` on it prints no EBADENGINE warning; the exceptions below
 * are listed with their reason, and leave the list once they are fixed.
 */

const ROOT = path.join(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

/**
 * Packages of which no version that works here supports Node 20; the project moves to Node 24
 * later, which lifts them all.
 */
const NEEDS_NEWER_NODE: Record<string, string> = {
  '@prisma/streams-local':
    'every version wants Node 22; the Prisma CLI (pinning @prisma/dev, which needs it) loads it only for `prisma dev`, a local Prisma Postgres the portal never runs',
  '@mantine/dropzone':
    'browser code (Vite bundles it; on Node it runs only under jsdom in the client tests); 9.6 and later want Node 22, and the 9.5 line would move all eight Mantine packages back two minors, as they require each other at one exact version',
  'react-dropzone': '@mantine/dropzone 9.7 requires react-dropzone 20, browser code that wants Node 22',
  'attr-accept': 'required by react-dropzone 20 (browser code)',
  'file-selector': 'required by react-dropzone 20 (browser code)',
};

type LockEntry = { version?: string; engines?: { node?: string } | string[]; link?: boolean };

const oldestNode = semver.minVersion(readJson('package.json').engines.node);
const lockPackages: Record<string, LockEntry> = readJson('package-lock.json').packages;

/** The name of a lock entry: what follows its last node_modules/. */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Each installed package whose `engines.node` leaves out the oldest supported Node. */
function refusing(): Array<{ name: string; version: string; node: string }> {
  const found = [];
  for (const [key, entry] of Object.entries(lockPackages)) {
    const node = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    if (!key || !node || entry.link) continue;
    if (!semver.satisfies(oldestNode ?? '0.0.0', node))
      found.push({ name: nameOf(key), version: entry.version ?? '?', node });
  }
  return found;
}

describe('Node versions of the installed packages', () => {
  it('the project names its oldest Node', () => {
    expect(oldestNode?.version).toBe('20.19.0');
  });

  it('every installed package accepts it, but the listed exceptions', () => {
    const unexplained = refusing().filter(({ name }) => !(name in NEEDS_NEWER_NODE));
    expect(unexplained, 'pin a version that supports it, or list the package with its reason').toEqual([]);
  });

  it('every exception is still needed', () => {
    const names = new Set(refusing().map(({ name }) => name));
    expect(Object.keys(NEEDS_NEWER_NODE).filter((name) => !names.has(name))).toEqual([]);
  });
});
