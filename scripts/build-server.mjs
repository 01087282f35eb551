// Bundles the server into dist/server/main.js, with the generated Prisma client inlined (it ships
// as TypeScript). Packages from node_modules stay external. Code splitting keeps what main.js
// imports lazily (the S3 driver and the AWS SDK it loads) in a chunk that a portal on local files
// never reads: one file to start fast, plus chunks only for what a setting asks for.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { prismaWasmFromFile } from './prisma-wasm-from-file.mjs';

await rm('dist/server', { recursive: true, force: true }); // no stale chunks beside the new ones

await build({
  entryPoints: ['server/main.ts'],
  outdir: 'dist/server',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24.11',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [prismaWasmFromFile('dist/server/chunks')],
});
