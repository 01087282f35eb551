import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The benchmarks' view of this process's event loop: lag can only be measured
 * from inside, and the server has no metrics endpoint. Off unless BENCH_REPORT_EVENT_LOOP=1;
 * then every SIGUSR2 prints one line `event-loop-delay {json}` with the delay percentiles since
 * the previous SIGUSR2 (or the start), in ms, and starts a fresh window. A benchmark sends one
 * signal before a load phase and one after it.
 */

export const EVENT_LOOP_REPORT_ENV = 'BENCH_REPORT_EVENT_LOOP';
export const EVENT_LOOP_REPORT_SIGNAL = 'SIGUSR2' as const;
export const EVENT_LOOP_REPORT_PREFIX = 'event-loop-delay ';

/** The lag beyond the timer's 10 ms ticks, in ms, over one window. */
export type EventLoopDelayReport = {
  /** Ticks sampled in the window (one per 10 ms the loop was free to run its timer). */
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
};

export function eventLoopReportEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[EVENT_LOOP_REPORT_ENV] === '1';
}

/** Starts the histogram and the signal handler; returns what stops both. */
export function reportEventLoopDelayOnSignal(write: (line: string) => void): () => void {
  // 10 ms is Node's default resolution: fine enough for a 50 ms goal, cheap enough to leave on.
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  // The histogram records the time between its timer's ticks, so an idle loop reads 10 ms: the
  // lag is what lies beyond the resolution.
  const ms = (nanoseconds: number) => Math.max(0, Math.round((nanoseconds / 1e6 - resolutionMs) * 100) / 100);
  const report = () => {
    const figures: EventLoopDelayReport = {
      count: histogram.count,
      p50Ms: ms(histogram.percentile(50)),
      p95Ms: ms(histogram.percentile(95)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
    };
    histogram.reset();
    write(`${EVENT_LOOP_REPORT_PREFIX}${JSON.stringify(figures)}`);
  };
  process.on(EVENT_LOOP_REPORT_SIGNAL, report);
  return () => {
    process.off(EVENT_LOOP_REPORT_SIGNAL, report);
    histogram.disable();
  };
}
