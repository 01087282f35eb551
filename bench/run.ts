import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../server/paths';
import type { Benchmark } from './lib/benchmark';
import { formatWithBiome, writeReport } from './lib/performance-report';
import { type Machine, writeResult } from './lib/results';

/**
 * `npm run bench [-- <name>...] [-- --quick]`: runs every bench/*.bench.ts (or the named ones)
 * one after the other, writes each run to bench/results/<time>-<name>.json, then regenerates
 * docs/PERFORMANCE.md and docs/performance-trend.svg from every results file.
 * `npm run bench -- report` only regenerates them. Not part of `npm test`: it takes tens of
 * minutes and wants the machine.
 */

async function benchmarks(): Promise<Benchmark[]> {
  const dir = path.join(PROJECT_ROOT, 'bench');
  const files = (await readdir(dir)).filter((file) => file.endsWith('.bench.ts')).sort();
  const loaded: Benchmark[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: Benchmark };
    loaded.push(module.default);
  }
  return loaded;
}

function machine(loadAtStart: number): Machine {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverage: { start: Number(loadAtStart.toFixed(2)), end: Number((os.loadavg()[0] ?? 0).toFixed(2)) },
  };
}

const git = async (...args: string[]) =>
  (await promisify(execFile)('git', args, { cwd: PROJECT_ROOT })).stdout.trim();

/** The commit measured, and whether code beside it had changed (the results and report aside). */
async function commitOf(): Promise<{ commit: string | null; uncommittedChanges?: boolean }> {
  try {
    const commit = await git('rev-parse', 'HEAD');
    const changes = await git(
      'status',
      '--porcelain',
      '--',
      '.',
      ':!bench/results',
      ':!docs/PERFORMANCE.md',
      ':!docs/performance-trend.svg',
    );
    return { commit, uncommittedChanges: changes.length > 0 };
  } catch {
    return { commit: null };
  }
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const all = await benchmarks();
  const reportOnly = names.length === 1 && names[0] === 'report';
  const unknown = reportOnly ? [] : names.filter((name) => !all.some((bench) => bench.name === name));
  if (unknown.length) {
    throw new Error(
      `No benchmark named ${unknown.join(', ')}; there are ${all.map((b) => b.name).join(', ')} (or report)`,
    );
  }
  const selected = reportOnly ? [] : names.length ? all.filter((bench) => names.includes(bench.name)) : all;
  const started = Date.now();
  for (const bench of selected) {
    const startedAt = new Date();
    const loadAtStart = os.loadavg()[0] ?? 0;
    const log = (message: string) => console.log(`[${bench.name}] ${message}`);
    log('start');
    const result = await bench.run({ log, quick });
    const file = await writeResult({
      benchmark: bench.name,
      startedAt: startedAt.toISOString(),
      ...(await commitOf()),
      machine: machine(loadAtStart),
      ...(quick ? { quick } : {}),
      goals: result.goals,
      details: result.markdown.trim(),
    });
    await formatWithBiome([file]);
    for (const goal of result.goals)
      log(`${goal.met ? 'met' : 'NOT MET'}: ${goal.name}: ${goal.measured} (goal ${goal.goal})`);
    log(
      `wrote ${path.relative(PROJECT_ROOT, file)}; done in ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s`,
    );
  }
  const runs = await writeReport();
  console.log(
    `docs/PERFORMANCE.md and docs/performance-trend.svg regenerated from ${runs.length} results ` +
      `(${Math.round((Date.now() - started) / 1000)} s)`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
