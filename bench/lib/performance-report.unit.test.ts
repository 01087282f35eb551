import { describe, expect, it } from 'vitest';
import { renderPerformanceDoc, sectionsOfOtherRuns, wrap } from './performance-report';
import { goalOf, runOf } from './test-runs';

const older = runOf({
  startedAt: '2026-11-21T17:42:00.000Z',
  goals: [
    goalOf({
      measured: 'p95 80.0 ms (old run)',
      figures: [{ value: 80, threshold: 100, unit: 'ms', better: 'lower' }],
    }),
  ],
});
const latest = runOf({
  startedAt: '2026-11-25T15:44:00.000Z',
  goals: [
    goalOf({ measured: 'p95 39.0 ms over HTTP' }),
    goalOf({
      name: 'Agent search p95',
      goal: 'p95 <= 20 ms',
      measured: 'p95 26.0 ms',
      met: false,
      gap: `the agent's search scans too much; ${'more detail '.repeat(60)}`,
      figures: [{ value: 26, threshold: 20, unit: 'ms', better: 'lower' }],
    }),
  ],
});

describe('renderPerformanceDoc', () => {
  const doc = renderPerformanceDoc({ runs: [latest, older] });

  it("shows each benchmark's latest figures, not an older run's", () => {
    expect(doc).toContain('measured p95 39.0 ms over HTTP');
    expect(doc).not.toContain('old run');
    expect(doc).toContain('Last run 2026-11-25 15:44 UTC, commit 4a29ada');
    expect(doc).toContain('[2026-11-25T1544Z-search.json](../bench/results/2026-11-25T1544Z-search.json)');
  });

  it('shows a failed goal as not met, in its list and among the goals not met with its explanation', () => {
    expect(doc).toMatch(/- \*\*not met\*\*: Agent search p95\. Goal p95 <= 20 ms/);
    expect(doc).toContain(
      "### Not met in the latest runs\n\n- search, Agent search p95: the agent's search scans too much;",
    );
    expect(doc).toContain('| search |  | 1 of 2 | 1.30 |');
    expect(doc).not.toContain('Every goal is met');
  });

  it('says every goal is met when none failed', () => {
    expect(renderPerformanceDoc({ runs: [older] })).toContain('Every goal is met in the latest runs.');
  });

  it('keeps every line within 200 characters, long explanations included', () => {
    const long = doc.split('\n').filter((line) => line.length > 200);
    expect(long).toEqual([]);
  });

  it('points at the trend chart and keeps the sections other runs write', () => {
    const resilience = '<!-- resilience:start -->\n## Load run\n\n175 requests/s\n<!-- resilience:end -->';
    const withOthers = renderPerformanceDoc({ runs: [latest], otherSections: [resilience] });
    expect(withOthers).toContain('![');
    expect(withOthers).toContain('(performance-trend.svg)');
    expect(withOthers).toContain(
      '<!-- resilience:start -->\n### Load run\n\n175 requests/s\n<!-- resilience:end -->',
    );
  });
});

describe('sectionsOfOtherRuns', () => {
  it("keeps the resilience runs' sections and drops the benchmarks' old ones", () => {
    const text = [
      '# Performance',
      '<!-- bench-search:start -->\n## Search\n<!-- bench-search:end -->',
      '<!-- resilience:start -->\n## Load run\n<!-- resilience:end -->',
      '<!-- sign-in-timing:start -->\n## Sign-in timing\n<!-- sign-in-timing:end -->',
    ].join('\n\n');
    expect(sectionsOfOtherRuns(text)).toEqual([
      '<!-- resilience:start -->\n## Load run\n<!-- resilience:end -->',
      '<!-- sign-in-timing:start -->\n## Sign-in timing\n<!-- sign-in-timing:end -->',
    ]);
  });
});

describe('wrap', () => {
  it('breaks between words within the width and indents the lines after the first', () => {
    const lines = wrap('one two three four five six', '- ', '  ', 12);
    expect(lines).toEqual(['- one two', '  three four', '  five six']);
  });
});
