import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../server/paths';
import { PERFORMANCE_DOC, writePerformanceSection } from '../server/test/performance-doc';
import type { Benchmark, Goal } from './lib/benchmark';

/**
 * `npm run bench [-- <name>...] [-- --quick]`: runs every bench/*.bench.ts (or the named ones)
 * one after the other, and rewrites each one's section of docs/PERFORMANCE.md plus the summary
 * table of every goal. Not part of `npm test`: it takes tens of minutes and wants the machine.
 */

const GOALS_MARK = /<!-- goals: (.*?) -->/g;

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

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const memory = Math.round(os.totalmem() / 2 ** 30);
  return `${os.cpus().length} cores (${cpu}), ${memory} GiB, Linux ${os.release()}, Node ${process.version}`;
}

/** Every goal recorded in the document, in the order of its sections. */
async function goalsInDocument(): Promise<Goal[]> {
  const text = await readFile(PERFORMANCE_DOC, 'utf8').catch(() => '');
  return [...text.matchAll(GOALS_MARK)].flatMap((match) => JSON.parse(match[1] ?? '[]') as Goal[]);
}

function summary(goals: Goal[], started: Date): string {
  const rows = goals.map(
    (goal) =>
      `| ${goal.name} | ${goal.goal} | ${goal.baseline} | ${goal.measured} | ${goal.met ? 'met' : '**not met**'} |`,
  );
  const gaps = goals.filter((goal) => !goal.met);
  return [
    '## Goals at a glance',
    '',
    `Last run ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.`,
    'Reproduce with `npm run bench` (all: about 7 minutes, plus 2 to 4 minutes the first time to generate the',
    '1,000,000-transaction dataset under .bench-data/) or `npm run bench -- <name>` (one section).',
    'Every timing is a ratio against a baseline measured alternately in the same run, or a percentile of',
    'many samples; the machine is shared, so absolute figures vary between runs.',
    '',
    '| Benchmark | Goal | Baseline | Measured | |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    gaps.length
      ? `Not met: ${gaps.map((goal) => `**${goal.name}**: ${goal.gap ?? 'no explanation recorded'}`).join(' ')}`
      : 'Every goal is met.',
  ].join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const all = await benchmarks();
  const unknown = names.filter((name) => !all.some((bench) => bench.name === name));
  if (unknown.length) {
    throw new Error(
      `No benchmark named ${unknown.join(', ')}; there are ${all.map((b) => b.name).join(', ')}`,
    );
  }
  const selected = names.length ? all.filter((bench) => names.includes(bench.name)) : all;
  const started = new Date();
  for (const bench of selected) {
    const began = Date.now();
    const log = (message: string) => console.log(`[${bench.name}] ${message}`);
    log('start');
    const result = await bench.run({ log, quick });
    await writePerformanceSection(
      `bench-${bench.name}`,
      `${result.markdown.trim()}\n\n<!-- goals: ${JSON.stringify(result.goals)} -->`,
    );
    for (const goal of result.goals)
      log(`${goal.met ? 'met' : 'NOT MET'}: ${goal.name}: ${goal.measured} (goal ${goal.goal})`);
    log(`done in ${Math.round((Date.now() - began) / 1000)} s`);
  }
  await writePerformanceSection('bench-summary', summary(await goalsInDocument(), started));
  console.log(`docs/PERFORMANCE.md updated (${Math.round((Date.now() - started.getTime()) / 1000)} s)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
