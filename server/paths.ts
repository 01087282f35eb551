import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root, found by walking up to package.json. It works both from the sources
 * (server/paths.ts, under tsx and vitest) and from the bundle (dist/server/main.js).
 */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'prisma', 'migrations');
export const SCHEMA_FILE = path.join(PROJECT_ROOT, 'prisma', 'schema.prisma');
export const CLIENT_DIST_DIR = path.join(PROJECT_ROOT, 'dist', 'client');
