import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { servedOpenApiDocument } from './openapi-document';

/**
 * `npm run openapi:lint`: Redocly's recommended rules (redocly.yaml) on the document the app
 * serves at /api/openapi.json. `--out <file>` only writes the document.
 */
const outAt = process.argv.indexOf('--out');
const document = await servedOpenApiDocument();
if (outAt !== -1) {
  const out = process.argv[outAt + 1];
  if (!out) throw new Error('--out needs a file');
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  process.exit(0);
}
// A fixed, ignored place: .redocly.lint-ignore.yaml names the accepted warnings by this file.
const file = '.scratch/openapi/openapi.json';
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(document, null, 2));
const result = spawnSync(
  process.execPath,
  [
    path.resolve('node_modules/@redocly/cli/bin/cli.js'),
    'lint',
    '--config',
    'redocly.yaml',
    ...process.argv.slice(2),
    file,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
process.exit(result.status ?? 1);
