import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every package package-lock.json installs runs on the oldest Node the project supports
 * (package.json `engines`): the scripts run the Node 24 that the `node` devDependency pins, and
 * the image is built on the same line. Any exception is listed below with its reason, and leaves
 * the list once it is fixed. (`npm ci` itself runs on the machine's Node, which may be older: its
 * EBADENGINE warnings there name packages that npm installs but never runs itself.)
 */

const ROOT = path.join(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

/** Packages of which no version that works here supports the oldest Node of `engines`: none now. */
const NEEDS_NEWER_NODE: Record<string, string> = {};

type LockEntry = {
  version?: string;
  engines?: { node?: string } | string[];
  link?: boolean;
  os?: string[];
  cpu?: string[];
};

/** Whether an `os` or `cpu` list of package.json admits this value ('!x' excludes x). */
function admits(list: string[] | undefined, value: string): boolean {
  if (!list) return true;
  if (list.includes(`!${value}`)) return false;
  const named = list.filter((item) => !item.startsWith('!'));
  return named.length === 0 || named.includes(value);
}

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
    // A native build for another system (sharp's for Windows, say) is never installed here.
    if (!admits(entry.os, process.platform) || !admits(entry.cpu, process.arch)) continue;
    if (!semver.satisfies(oldestNode ?? '0.0.0', node))
      found.push({ name: nameOf(key), version: entry.version ?? '?', node });
  }
  return found;
}

describe('Node versions of the installed packages', () => {
  it('the project names its oldest Node', () => {
    expect(oldestNode?.version).toBe('24.11.0');
  });

  it('every installed package accepts it, but the listed exceptions', () => {
    const unexplained = refusing().filter(({ name }) => !(name in NEEDS_NEWER_NODE));
    expect(unexplained, 'pin a version that supports it, or list the package with its reason').toEqual([]);
  });

  it('the tests run on a Node it supports: the one the `node` devDependency pins, as the npm scripts do', () => {
    const pinned = readJson('package.json').devDependencies.node;
    expect(semver.satisfies(pinned, readJson('package.json').engines.node)).toBe(true);
    // Vitest's workers are child processes of the Node that started it: the pinned one, first on
    // the PATH of every npm script and npx call.
    expect(process.versions.node).toBe(pinned);
  });

  it('the Docker image is built on the same Node', () => {
    const image = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').match(
      /^ARG NODE_IMAGE=node:([\d.]+)-/m,
    )?.[1];
    expect(image).toBe(readJson('package.json').devDependencies.node);
  });

  it('every exception is still needed', () => {
    const names = new Set(refusing().map(({ name }) => name));
    expect(Object.keys(NEEDS_NEWER_NODE).filter((name) => !names.has(name))).toEqual([]);
  });
});
