import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/paths';
import type { Figure, Goal } from './benchmark';

/**
 * Every run of a benchmark is kept as one JSON file under bench/results/: the figures, the
 * verdicts and the raw tables and plans behind them. docs/PERFORMANCE.md and its trend chart are
 * derived from these files alone (bench/lib/performance-report.ts), so nothing measured is lost
 * when the document shows only the latest figures.
 */

export const RESULTS_DIR = path.join(PROJECT_ROOT, 'bench', 'results');

export type Machine = {
  cores: number;
  cpu: string;
  memoryGiB: number;
  /** e.g. "Linux 6.18.44" */
  os: string;
  node: string;
  /** 1-minute load average when the benchmark began and ended: how much else was running. */
  loadAverage?: { start: number; end: number };
};

export type RunResult = {
  benchmark: string;
  /** ISO 8601, UTC: when this benchmark's run began. */
  startedAt: string;
  /** The commit measured (`git rev-parse HEAD`); null when unknown. */
  commit: string | null;
  /** Whether the work tree had changes outside bench/results/ and the document when it ran. */
  uncommittedChanges?: boolean;
  machine: Machine;
  /** `npm run bench -- --quick`: fewer rounds, a try-out rather than a measurement. */
  quick?: boolean;
  goals: Goal[];
  /** The run's markdown: method, per-round tables, EXPLAIN plans (BenchmarkResult.markdown). */
  details: string;
  /** Where the record came from when it was not written by bench/run.ts itself. */
  source?: string;
};

/** "2026-12-02T0830Z-api-list.json": sorts by time, says what ran. */
export function resultFileName(run: Pick<RunResult, 'benchmark' | 'startedAt'>): string {
  const started = new Date(run.startedAt);
  if (Number.isNaN(started.getTime())) throw new Error(`Not a date: ${run.startedAt}`);
  const stamp = started.toISOString().slice(0, 16).replace(':', '');
  return `${stamp}Z-${run.benchmark}.json`;
}

/** Writes the run as bench/results/<time>-<name>.json and returns the file's path. */
export async function writeResult(run: RunResult, dir = RESULTS_DIR): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, resultFileName(run));
  await writeFile(file, `${JSON.stringify(run, null, 2)}\n`);
  return file;
}

/** Every run in the folder, oldest first; a file that is not a run is an error, not skipped. */
export async function readResults(dir = RESULTS_DIR): Promise<RunResult[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.json'));
  const runs: RunResult[] = [];
  for (const file of files) {
    const run = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as RunResult;
    if (typeof run.benchmark !== 'string' || !Array.isArray(run.goals) || typeof run.startedAt !== 'string')
      throw new Error(`${file} is not a benchmark run (benchmark, startedAt and goals are required)`);
    runs.push(run);
  }
  return runs.sort(
    (a, b) => a.startedAt.localeCompare(b.startedAt) || a.benchmark.localeCompare(b.benchmark),
  );
}

/**
 * The latest run of each benchmark, in the order the benchmarks first appeared. A quick run is
 * a try-out: it is the latest only when the benchmark has never had a full one.
 */
export function latestRuns(runs: readonly RunResult[]): RunResult[] {
  const latest = new Map<string, RunResult>();
  for (const run of [...runs].sort((a, b) => a.startedAt.localeCompare(b.startedAt))) {
    const current = latest.get(run.benchmark);
    if (!current || !run.quick || current.quick) latest.set(run.benchmark, run);
  }
  return [...latest.values()];
}

/**
 * How close a figure is to its threshold, on one scale for every unit: value / threshold when
 * lower is better, threshold / value when higher is better. At most 1 is met.
 */
export function figureScore(figure: Figure): number {
  if (figure.better === 'lower') return figure.value / figure.threshold;
  return figure.value > 0 ? figure.threshold / figure.value : Number.POSITIVE_INFINITY;
}

/** A goal's score: its worst condition's (all of them must hold); undefined for a yes-or-no goal. */
export function goalScore(goal: Goal): number | undefined {
  if (!goal.figures?.length) return undefined;
  return Math.max(...goal.figures.map(figureScore));
}
