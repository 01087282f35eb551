import type { Goal } from './benchmark';
import type { RunResult } from './results';

/** Runs for the unit tests of the results, the report and the chart: only what each test sets differs. */
export function goalOf(overrides: Partial<Goal> = {}): Goal {
  return {
    name: 'Search p95',
    goal: 'p95 <= 100 ms',
    baseline: 'the same SQL directly on pg: p95 30 ms',
    measured: 'p95 40 ms',
    met: true,
    figures: [{ value: 40, threshold: 100, unit: 'ms', better: 'lower' }],
    ...overrides,
  };
}

export function runOf(overrides: Partial<RunResult> = {}): RunResult {
  return {
    benchmark: 'search',
    startedAt: '2026-11-25T15:44:00.000Z',
    commit: '4a29ada0000000000000000000000000000000000',
    machine: { cores: 2, cpu: 'AMD EPYC', memoryGiB: 24, os: 'Linux 6.18', node: 'v20.20.2' },
    goals: [goalOf()],
    details: '## Search across 1,000,000 transactions\n\n| round | p95 ms |\n| --- | ---: |\n| 1 | 40 |',
    ...overrides,
  };
}
