import { describe, expect, it } from 'vitest';
import {
  EVENT_LOOP_REPORT_PREFIX,
  EVENT_LOOP_REPORT_SIGNAL,
  type EventLoopDelayReport,
  eventLoopReportEnabled,
  reportEventLoopDelayOnSignal,
} from './event-loop-report';

/** Blocks the event loop, as slow synchronous work would. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spinning on purpose
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the event-loop report of the benchmarks', () => {
  it('is on only when BENCH_REPORT_EVENT_LOOP is 1', () => {
    expect(eventLoopReportEnabled({ BENCH_REPORT_EVENT_LOOP: '1' })).toBe(true);
    expect(eventLoopReportEnabled({ BENCH_REPORT_EVENT_LOOP: 'true' })).toBe(false);
    expect(eventLoopReportEnabled({})).toBe(false);
  });

  it('prints one line per signal with the lag of the window since the last one, then starts afresh', async () => {
    const lines: string[] = [];
    const stop = reportEventLoopDelayOnSignal((line) => lines.push(line));
    try {
      await sleep(50);
      busyFor(120);
      await sleep(50);
      process.emit(EVENT_LOOP_REPORT_SIGNAL, EVENT_LOOP_REPORT_SIGNAL);
      // At once, before the histogram's timer can tick again: the new window is empty.
      process.emit(EVENT_LOOP_REPORT_SIGNAL, EVENT_LOOP_REPORT_SIGNAL);
    } finally {
      stop();
    }
    expect(lines).toHaveLength(2);
    const [blocked, fresh] = lines.map((line) => {
      expect(line.startsWith(EVENT_LOOP_REPORT_PREFIX)).toBe(true);
      return JSON.parse(line.slice(EVENT_LOOP_REPORT_PREFIX.length)) as EventLoopDelayReport;
    });
    // The 120 ms block shows as a lag of at least 100 ms beyond the 10 ms tick (it can only be more) ...
    expect(blocked?.maxMs).toBeGreaterThanOrEqual(100);
    // ... and is gone from the next window.
    expect(fresh).toEqual({ count: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 });
    expect(Object.keys(blocked ?? {}).sort()).toEqual(['count', 'maxMs', 'p50Ms', 'p95Ms', 'p99Ms']);
  });
});
