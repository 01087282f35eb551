import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeapCompaction } from './heap-compaction';

describe('heap compaction after a storm of sockets', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects once the churn reached the threshold and then went quiet, not during the storm', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const compaction = new HeapCompaction(
      { churn: 3, quietMs: 1_000, minIntervalMs: 10_000, maxWaitMs: 60_000 },
      collect,
    );
    compaction.noteChurn();
    compaction.noteChurn();
    vi.advanceTimersByTime(5_000);
    expect(collect).not.toHaveBeenCalled(); // below the threshold: no storm
    compaction.noteChurn();
    vi.advanceTimersByTime(900);
    compaction.noteChurn(); // still storming: the wait starts over
    vi.advanceTimersByTime(900);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(collect).toHaveBeenCalledTimes(1);
    compaction.close();
  });

  it('leaves at least minIntervalMs between two collections', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const compaction = new HeapCompaction(
      { churn: 1, quietMs: 100, minIntervalMs: 10_000, maxWaitMs: 60_000 },
      collect,
    );
    compaction.noteChurn();
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    compaction.noteChurn();
    vi.advanceTimersByTime(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(collect).toHaveBeenCalledTimes(2);
    compaction.close();
  });

  it('collects a storm that never goes quiet once it lasted maxWaitMs', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const compaction = new HeapCompaction(
      { churn: 2, quietMs: 1_000, minIntervalMs: 1_000, maxWaitMs: 5_000 },
      collect,
    );
    for (let second = 0; second < 4; second++) {
      compaction.noteChurn();
      vi.advanceTimersByTime(500); // never quiet for a whole second
    }
    expect(collect).not.toHaveBeenCalled();
    for (let second = 0; second < 8; second++) {
      compaction.noteChurn();
      vi.advanceTimersByTime(500);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    compaction.close();
  });

  it('does nothing where no collector is available', () => {
    vi.useFakeTimers();
    const compaction = new HeapCompaction(
      { churn: 1, quietMs: 10, minIntervalMs: 10, maxWaitMs: 60_000 },
      null,
    );
    compaction.noteChurn();
    vi.advanceTimersByTime(100);
    expect(compaction.collections).toBe(0);
  });
});
