// `npm run test:resilience`: the resilience files (server/resilience) against the built server,
// in two phases, so that the suite's longest wait is not also its longest step:
// 1. the job engine's file, which spends most of its time waiting out a minute of SMTP outage,
//    beside the two-instance file, which checks outcomes only (no figure, no time limit);
// 2. the runs that measure or bound times, each alone on the machine: the database outage
//    (answers within 2 s), the 60 s load and the sign-in timing.
// `--beside-first-phase COMMAND` also runs COMMAND during the first phase (CI's PostgreSQL pass),
// its output prefixed; the run fails if it fails.
// With other arguments (file filters, -t ...), one Vitest run takes them instead, as `vitest run`
// would.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const CONFIG = ['run', '--config', 'vitest.resilience.config.ts'];
/** Each in a Vitest run of its own, at the same time. */
const BESIDE_EACH_OTHER = [
  'server/resilience/jobs.resilience.ts',
  'server/resilience/multi-instance.resilience.ts',
];
const ALONE = [
  'server/resilience/fault.resilience.ts',
  'server/resilience/load.resilience.ts',
  'server/resilience/sign-in-timing.resilience.ts',
];

/** Runs a command; with a label, each line it prints is prefixed, as two run at once. */
function run(command, args, { label, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    if (label) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        createInterface({ input: from }).on('line', (line) => to.write(`[${label}] ${line}\n`));
      }
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const args = process.argv.slice(2);
const besideAt = args.indexOf('--beside-first-phase');
const besideFirstPhase = besideAt === -1 ? null : args[besideAt + 1];
if (besideAt !== -1 && !besideFirstPhase) {
  console.error('--beside-first-phase needs a command');
  process.exit(1);
}
const passThrough = besideAt === -1 ? args : args.filter((_, at) => at !== besideAt && at !== besideAt + 1);
if (passThrough.length > 0) {
  process.exit(await run('npx', ['vitest', ...CONFIG, ...passThrough]));
}

// A new file must be placed in a phase here, or it would never run.
const listed = new Set([...BESIDE_EACH_OTHER, ...ALONE]);
const unplaced = readdirSync('server/resilience')
  .filter((name) => name.endsWith('.resilience.ts'))
  .map((name) => `server/resilience/${name}`)
  .filter((file) => !listed.has(file));
if (unplaced.length > 0) {
  console.error(`scripts/test-resilience.mjs runs no phase of: ${unplaced.join(', ')}. Place each in one.`);
  process.exit(1);
}

// Built once here: two Vitest runs at once would each rebuild dist/server under the other.
const built = await run(process.execPath, ['scripts/build-server.mjs']);
if (built !== 0) process.exit(built);
const env = { RESILIENCE_SERVER_BUILT: '1' };

const together = await Promise.all([
  ...BESIDE_EACH_OTHER.map((file) =>
    run('npx', ['vitest', ...CONFIG, file], { label: path.basename(file, '.resilience.ts'), env }),
  ),
  ...(besideFirstPhase ? [run(besideFirstPhase, [], { label: path.basename(besideFirstPhase) })] : []),
]);
const alone = await run('npx', ['vitest', ...CONFIG, ...ALONE], { env });
process.exit([...together, alone].some((code) => code !== 0) ? 1 : 0);
