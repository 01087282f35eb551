/**
 * One benchmark of `npm run bench`: a file bench/<name>.bench.ts whose default export is a
 * Benchmark. bench/run.ts runs them in order, writes each run to bench/results/ as one JSON file
 * (bench/lib/results.ts), then regenerates docs/PERFORMANCE.md and its trend chart from all of them.
 */
export type Goal = {
  /** e.g. "REST list throughput vs raw Fastify + pg" */
  name: string;
  /** e.g. ">= 0.6" */
  goal: string;
  /** What the figure is compared with, e.g. "raw Fastify + pg route, same process" */
  baseline: string;
  /** The measured figure, formatted, e.g. "0.71 (1,840 vs 2,590 req/s)" */
  measured: string;
  met: boolean;
  /** When not met: why, and the plan. */
  gap?: string;
  /**
   * The goal's numbers, for the trend chart: one per condition of the goal (a goal on throughput
   * and CPU has two). Left out for a goal that is a yes or no (a plan that uses its indexes).
   */
  figures?: Figure[];
};

/**
 * One condition of a goal as numbers: the measured value against its threshold, in one unit.
 * The chart draws value / threshold (threshold / value when higher is better), so every goal
 * meets at 1.0 whatever its unit.
 */
export type Figure = {
  value: number;
  threshold: number;
  /** e.g. "ms", "MB", "x" for a ratio against the baseline measured in the same run */
  unit: string;
  better: 'lower' | 'higher';
};

export type BenchmarkResult = {
  /**
   * The run's details in markdown: method, per-round tables, query plans; starts with a `##`
   * heading, which names the benchmark in docs/PERFORMANCE.md. Kept whole in the results file.
   */
  markdown: string;
  goals: Goal[];
};

export type Benchmark = {
  /** Short, kebab-case: used on the command line and in the results files' names. */
  name: string;
  run(context: BenchContext): Promise<BenchmarkResult>;
};

export type BenchContext = {
  /** Progress lines for the console (never figures only there: they go in the markdown). */
  log(message: string): void;
  /** `npm run bench -- --quick`: fewer rounds and shorter loads, for trying a benchmark out. */
  quick: boolean;
};
