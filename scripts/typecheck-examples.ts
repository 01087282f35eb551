import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiTypes } from './openapi-types';

/**
 * The examples of docs/API.md ("A typed client", examples/*.ts) type-checked with tsc against the
 * types openapi-typescript makes of an OpenAPI document, as an integrator would: a route whose
 * path, parameters or shapes changed under an example fails here. Used by
 * server/rest/typed-client.test.ts and scripts/run-typed-client-example.ts.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EXAMPLES_DIR = path.join(ROOT, 'examples');

/** The example sources (not the generated api-types.ts a developer may have beside them). */
export function exampleFiles(): string[] {
  return readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.ts') && name !== 'api-types.ts');
}

export function typeCheckExamples(document: unknown): { ok: boolean; output: string } {
  // In a folder of the project, so `openapi-fetch` and `standardwebhooks` resolve from its node_modules.
  mkdirSync(path.join(ROOT, '.scratch'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, '.scratch/typed-client-'));
  try {
    writeFileSync(path.join(dir, 'api-types.ts'), generateApiTypes(document));
    for (const name of exampleFiles()) copyFileSync(path.join(EXAMPLES_DIR, name), path.join(dir, name));
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { types: ['node'] },
        include: ['*.ts'],
      }),
    );
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', dir],
      { cwd: ROOT, encoding: 'utf8' },
    );
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
