/**
 * One benchmark of `npm run bench`: a file bench/<name>.bench.ts whose default export is a
 * Benchmark. bench/run.ts runs them in order and writes each one's markdown as the section
 * `<!-- bench-<name>:start -->` ... `<!-- bench-<name>:end -->` of docs/PERFORMANCE.md.
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
};

export type BenchmarkResult = {
  /** The section's markdown: method, tables, plans; starts with a `##` heading. */
  markdown: string;
  goals: Goal[];
};

export type Benchmark = {
  /** Short, kebab-case: used in the section markers and on the command line. */
  name: string;
  run(context: BenchContext): Promise<BenchmarkResult>;
};

export type BenchContext = {
  /** Progress lines for the console (never figures only there: they go in the markdown). */
  log(message: string): void;
  /** `npm run bench -- --quick`: fewer rounds and shorter loads, for trying a benchmark out. */
  quick: boolean;
};
