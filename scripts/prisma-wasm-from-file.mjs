// Prisma's query compiler, from a .wasm file beside the bundle instead of a base64 module
// (the idle process's memory). Used by build-server.mjs; tested by
// prisma-wasm-from-file.test.ts.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const WASM_BASE64_MODULE = '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs';
const WASM_FILE = 'query_compiler_fast_bg.postgresql.wasm';

/**
 * Prisma's query compiler ships only as a module exporting the .wasm as a base64 string. Once
 * imported, that module stays loaded for the life of the process, and so do its 4.4 MB string
 * and its source text in V8's heap. Measured on the idle built server: about 7 MB less heap
 * without them (heap used 49 to 53 MB before, 44 to 47 MB after).
 *
 * This esbuild plugin decodes the string once, at build time, into `<chunksDir>/<WASM_FILE>`.
 * The module is imported dynamically, so its replacement is a chunk in that same folder, and the
 * replacement reads the file when the client asks for it. The generated client calls
 * Buffer.from(wasm, 'base64'). Buffer.from takes an object's valueOf() and ignores the encoding
 * for a Buffer, so the bytes are read on demand and nothing keeps them afterwards.
 */
export function prismaWasmFromFile(chunksDir) {
  return {
    name: 'prisma-wasm-from-file',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /query_compiler_fast_bg\.postgresql\.wasm-base64\.mjs$/ }, () => ({
        path: WASM_BASE64_MODULE,
        namespace: 'prisma-wasm-from-file',
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'prisma-wasm-from-file' }, async () => {
        const source = await readFile(require.resolve(WASM_BASE64_MODULE), 'utf8');
        const base64 = source.match(/wasm = "([A-Za-z0-9+/=]+)"/)?.[1];
        if (!base64) {
          throw new Error(`${WASM_BASE64_MODULE} no longer holds a base64 string: update ${import.meta.url}`);
        }
        await mkdir(chunksDir, { recursive: true });
        await writeFile(path.join(chunksDir, WASM_FILE), Buffer.from(base64, 'base64'));
        return {
          loader: 'js',
          contents: `import { readFileSync } from 'node:fs';
// Read when Prisma's client first needs the compiler (scripts/prisma-wasm-from-file.mjs says why).
export const wasm = { valueOf: () => readFileSync(new URL('./${WASM_FILE}', import.meta.url)) };
`,
        };
      });
    },
  };
}
