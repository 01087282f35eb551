// Precompresses the built client, run by `npm run build` after `vite build`: beside every
// text file of dist/client it writes <file>.br (brotli, quality 11) and <file>.gz (gzip -9), which
// the server hands to a browser that accepts them (@fastify/static with preCompressed, in
// server/plugins/client.ts). The work is done once per build at the slowest, smallest settings,
// instead of on every request at fast ones. A compressed copy that would not be smaller than the
// file itself is not written: the server then sends the file as it is.
//
//   node scripts/precompress.mjs [--dir dist/client]
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DEFAULT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));

/** Text formats a build may hold; images such as PNG or WOFF2 fonts are compressed already. */
const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|webmanifest|txt|xml|map|wasm)$/i;

/** Below this, the headers' own bytes outweigh what compression could save. */
const MIN_BYTES = 256;

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Compresses every eligible file of `dir`; returns what was written, for the log line. */
export async function precompress(dir = DEFAULT_DIR) {
  const files = await filesUnder(dir);
  // A rerun on a folder it already treated must not compress the .br/.gz of the last run, nor
  // keep a copy whose original has changed: every old one goes first.
  await Promise.all(files.filter((file) => /\.(?:br|gz)$/.test(file)).map((file) => rm(file)));
  const written = [];
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = await readFile(file);
    if (raw.length < MIN_BYTES) continue;
    const brotli = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gzip = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
    const entry = { file: path.relative(dir, file), bytes: raw.length };
    if (brotli.length < raw.length) {
      await writeFile(`${file}.br`, brotli);
      entry.br = brotli.length;
    }
    if (gzip.length < raw.length) {
      await writeFile(`${file}.gz`, gzip);
      entry.gz = gzip.length;
    }
    written.push(entry);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dirAt = args.indexOf('--dir');
  const dir = dirAt === -1 ? DEFAULT_DIR : path.resolve(args[dirAt + 1] ?? '');
  const written = await precompress(dir);
  const sum = (key) => written.reduce((total, entry) => total + (entry[key] ?? entry.bytes), 0);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(
    `Precompressed ${written.length} files of ${path.relative(process.cwd(), dir) || dir}: ` +
      `${kib(sum('bytes'))} raw, ${kib(sum('br'))} brotli, ${kib(sum('gz'))} gzip.`,
  );
}
