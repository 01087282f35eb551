import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { prismaWasmFromFile, WASM_BASE64_MODULE } from './prisma-wasm-from-file.mjs';

const require = createRequire(import.meta.url);
const outdir = await mkdtemp(path.join(tmpdir(), 'prisma-wasm-'));
afterAll(() => rm(outdir, { recursive: true, force: true }));

describe("Prisma's query compiler from a file beside the bundle", () => {
  it('the bundle gets the same bytes as the base64 module, and no chunk holds the base64 string', async () => {
    // An entry that loads the compiler as the generated client does (server/db/generated). Without
    // splitting the replacement is inlined in entry.mjs, in the folder the plugin writes the file to.
    const entry = path.join(outdir, 'entry.mjs');
    await build({
      stdin: {
        contents: `const { wasm } = await import(${JSON.stringify(WASM_BASE64_MODULE)});
const bytes = Buffer.from(wasm, 'base64');
console.log(JSON.stringify({ length: bytes.length, valid: WebAssembly.validate(bytes), head: bytes.subarray(0, 64).toString('hex') }));`,
        resolveDir: process.cwd(),
        loader: 'js',
      },
      outfile: entry,
      bundle: true,
      splitting: false,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      plugins: [prismaWasmFromFile(outdir)],
      logLevel: 'silent',
    });
    const { stdout } = await promisify(execFile)(process.execPath, [entry]);
    const loaded = JSON.parse(stdout) as { length: number; valid: boolean; head: string };
    const source = await readFile(require.resolve(WASM_BASE64_MODULE), 'utf8');
    const original = Buffer.from(source.match(/wasm = "([A-Za-z0-9+/=]+)"/)?.[1] ?? '', 'base64');
    expect(original.length).toBeGreaterThan(1_000_000);
    expect(loaded).toEqual({
      length: original.length,
      valid: true,
      head: original.subarray(0, 64).toString('hex'),
    });
    for (const name of await readdir(outdir)) {
      if (name.endsWith('.mjs') || name.endsWith('.js')) {
        expect((await readFile(path.join(outdir, name), 'utf8')).length).toBeLessThan(10_000);
      }
    }
  });
});
