import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { goalScore, latestRuns, readResults, resultFileName, writeResult } from './results';
import { goalOf, runOf } from './test-runs';

describe('results files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bench-results-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a file by the time the run began (UTC, to the minute) and the benchmark', () => {
    expect(resultFileName({ benchmark: 'api-list', startedAt: '2026-12-02T08:30:41.123Z' })).toBe(
      '2026-12-02T0830Z-api-list.json',
    );
    expect(resultFileName({ benchmark: 'jobs', startedAt: '2026-12-02T09:30:00+01:00' })).toBe(
      '2026-12-02T0830Z-jobs.json',
    );
    expect(() => resultFileName({ benchmark: 'jobs', startedAt: 'yesterday' })).toThrow(/Not a date/);
  });

  it('writes one file a run and reads every run back, oldest first, with its tables', async () => {
    const later = runOf({
      startedAt: '2026-12-01T10:00:00.000Z',
      details: '## Search\n\nEXPLAIN: Index Scan',
    });
    const earlier = runOf({ benchmark: 'upload', startedAt: '2026-11-21T17:42:00.000Z' });
    await writeResult(later, dir);
    await writeResult(earlier, dir);

    expect((await readdir(dir)).sort()).toEqual([
      '2026-11-21T1742Z-upload.json',
      '2026-12-01T1000Z-search.json',
    ]);
    const runs = await readResults(dir);
    expect(runs.map((run) => run.benchmark)).toEqual(['upload', 'search']);
    expect(runs[1]).toEqual(later);
  });

  it('refuses a JSON file that is not a run instead of charting nothing from it', async () => {
    await writeFile(path.join(dir, 'notes.json'), JSON.stringify({ hello: 'world' }));
    await expect(readResults(dir)).rejects.toThrow(/notes\.json is not a benchmark run/);
  });

  it('reads an empty list when the folder does not exist yet', async () => {
    expect(await readResults(path.join(dir, 'missing'))).toEqual([]);
  });
});

describe('latestRuns', () => {
  it('keeps the latest run of each benchmark, whatever order the runs come in', () => {
    const old = runOf({ startedAt: '2026-11-21T17:42:00.000Z', goals: [goalOf({ measured: 'p95 80 ms' })] });
    const recent = runOf({
      startedAt: '2026-11-25T15:44:00.000Z',
      goals: [goalOf({ measured: 'p95 39 ms' })],
    });
    const upload = runOf({ benchmark: 'upload', startedAt: '2026-11-22T00:00:00.000Z' });

    const latest = latestRuns([recent, upload, old]);
    expect(latest).toHaveLength(2);
    expect(latest.find((run) => run.benchmark === 'search')?.goals[0]?.measured).toBe('p95 39 ms');
  });

  it('never lets a quick try-out replace a full run, but shows it when there is nothing else', () => {
    const full = runOf({ startedAt: '2026-11-25T15:44:00.000Z' });
    const quick = runOf({ startedAt: '2026-11-26T00:00:00.000Z', quick: true });
    const onlyQuick = runOf({ benchmark: 'upload', startedAt: '2026-11-26T00:00:00.000Z', quick: true });

    const latest = latestRuns([full, quick, onlyQuick]);
    expect(latest).toEqual([full, onlyQuick]);
  });
});

describe('goalScore', () => {
  it('divides the figure by its threshold when lower is better, and the reverse when higher is', () => {
    expect(goalScore(goalOf({ figures: [{ value: 40, threshold: 100, unit: 'ms', better: 'lower' }] }))).toBe(
      0.4,
    );
    expect(
      goalScore(
        goalOf({ figures: [{ value: 25_000, threshold: 20_000, unit: 'rows/s', better: 'higher' }] }),
      ),
    ).toBe(0.8);
  });

  it('takes the worse condition of a goal with two, so a miss on either shows above 1', () => {
    const score = goalScore(
      goalOf({
        figures: [
          { value: 1.13, threshold: 0.85, unit: 'x', better: 'higher' },
          { value: 1.8, threshold: 1.5, unit: 'x', better: 'lower' },
        ],
      }),
    );
    expect(score).toBeCloseTo(1.2);
  });

  it('has no score for a yes-or-no goal', () => {
    expect(goalScore(goalOf({ figures: undefined }))).toBeUndefined();
    expect(goalScore(goalOf({ figures: [] }))).toBeUndefined();
  });
});
