// Bundles the server into dist/server/main.js: one file to start fast, with the generated Prisma
// client inlined (it ships as TypeScript). Packages from node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
