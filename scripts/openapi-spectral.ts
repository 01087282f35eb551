import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { servedOpenApiDocument } from './openapi-document';

/**
 * `npm run openapi:spectral`: Spectral's OpenAPI rules (`.spectral.yaml`, extending spectral:oas)
 * on the document the app serves at /api/openapi.json. Fails on any error, on any warning that
 * `.spectral-ignore.json` does not list (each entry with its reason), and on an entry there that
 * no longer matches anything, so the list stays true.
 */

type Finding = { code: string; path: string[]; message: string; severity: number };
type Accepted = { rule: string; path: string; reason: string };

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const file = '.scratch/openapi/openapi.json';
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(await servedOpenApiDocument(), null, 2));

const out = '.scratch/openapi/spectral.json';
const run = spawnSync(
  process.execPath,
  [
    path.resolve('node_modules/@stoplight/spectral-cli/dist/index.js'),
    'lint',
    '--ruleset',
    '.spectral.yaml',
    '--format',
    'json',
    '--output',
    out,
    '--fail-severity',
    'error',
    '--quiet',
    file,
  ],
  { stdio: 'inherit', env: { ...process.env, SCARF_ANALYTICS: 'false' } },
);
// 1 is "errors found" (reported below); anything else is Spectral failing to run.
if (run.status !== 0 && run.status !== 1) process.exit(run.status ?? 2);

const findings = JSON.parse(readFileSync(out, 'utf8')) as Finding[];
const accepted = JSON.parse(readFileSync('.spectral-ignore.json', 'utf8')) as Accepted[];
const used = new Set<Accepted>();
const problems: string[] = [];
for (const finding of findings) {
  const where = finding.path.join('.');
  const severity = SEVERITY[finding.severity] ?? 'unknown';
  const entry = accepted.find((candidate) => candidate.rule === finding.code && candidate.path === where);
  if (entry && finding.severity > 0) {
    used.add(entry);
    continue;
  }
  const line = `${severity} ${finding.code} at ${where || '(document)'}: ${finding.message}`;
  if (finding.severity <= 1) problems.push(line);
  else console.log(line);
}
for (const entry of accepted) {
  if (!entry.reason?.trim())
    problems.push(`.spectral-ignore.json: ${entry.rule} at ${entry.path} gives no reason`);
  if (!used.has(entry))
    problems.push(`.spectral-ignore.json: ${entry.rule} at ${entry.path} matches nothing now`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\nSpectral: ${problems.length} problem(s) (errors, or warnings .spectral-ignore.json does not list)`,
  );
  process.exit(1);
}
console.log(
  `Spectral: no errors, no unexplained warnings (${used.size} accepted, see .spectral-ignore.json)`,
);
