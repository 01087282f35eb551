import { describe, expect, it } from 'vitest';
import { goalOf, runOf } from './test-runs';
import { renderTrendSvg, trendSeries } from './trend-chart';

const lower = (value: number, threshold: number) => [
  { value, threshold, unit: 'ms', better: 'lower' as const },
];

const runs = [
  runOf({
    startedAt: '2026-11-21T17:42:00.000Z',
    goals: [
      goalOf({ name: 'Admin search p95', figures: lower(120, 100), met: false }),
      goalOf({ name: 'Agent search p95', figures: lower(10, 20) }),
      goalOf({ name: 'Plans use the indexes', figures: undefined }),
    ],
  }),
  runOf({
    startedAt: '2026-11-25T15:44:00.000Z',
    goals: [
      goalOf({ name: 'Admin search p95', figures: lower(40, 100) }),
      goalOf({ name: 'Agent search p95', figures: lower(11, 20) }),
      goalOf({ name: 'Plans use the indexes', figures: undefined }),
    ],
  }),
  runOf({
    benchmark: 'upload',
    startedAt: '2026-11-22T00:00:00.000Z',
    goals: [goalOf({ name: 'Upload RSS growth', figures: lower(28, 50) })],
  }),
];

describe('trendSeries', () => {
  it('makes one series per goal with figures, its points in time order', () => {
    const series = trendSeries(runs);
    expect(series.map((s) => `${s.benchmark}: ${s.goal}`)).toEqual([
      'search: Admin search p95',
      'search: Agent search p95',
      'upload: Upload RSS growth',
    ]);
    expect(series[0]?.points.map((p) => [p.score, p.met])).toEqual([
      [1.2, false],
      [0.4, true],
    ]);
  });

  it('leaves quick try-outs off the trend', () => {
    const quick = runOf({
      startedAt: '2026-11-30T00:00:00.000Z',
      quick: true,
      goals: [goalOf({ name: 'Admin search p95' })],
    });
    expect(trendSeries([...runs, quick])[0]?.points).toHaveLength(2);
  });
});

describe('renderTrendSvg', () => {
  const svg = renderTrendSvg(runs);

  it('draws one panel per benchmark and one line per goal with figures', () => {
    expect(svg.match(/<g class="panel"/g)).toHaveLength(2);
    expect(svg.match(/<g class="series"/g)).toHaveLength(3);
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    expect(svg).not.toContain('Plans use the indexes');
  });

  it('draws a run that missed its goal as a hollow point, a met one filled', () => {
    const admin = /<g class="series" data-goal="Admin search p95">([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
    const circles = admin.match(/<circle [^>]*>/g) ?? [];
    expect(circles).toHaveLength(2);
    expect(circles[0]).toContain('fill="#fff"');
    expect(circles[1]).not.toContain('fill="#fff"');
  });

  it('puts a missed point above the dashed goal line and a met one below it', () => {
    const goalLine = Number(/<line x1="[\d.]+" y1="([\d.]+)"[^>]*stroke-dasharray/.exec(svg)?.[1]);
    const admin = /<g class="series" data-goal="Admin search p95">([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
    const [missed, met] = [...admin.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(missed).toBeLessThan(goalLine);
    expect(met).toBeGreaterThan(goalLine);
  });

  it('escapes goal names and draws the same chart from the same results', () => {
    const odd = [runOf({ goals: [goalOf({ name: 'p95 <= 5 ms & "fast"' })] })];
    expect(renderTrendSvg(odd)).toContain('data-goal="p95 &lt;= 5 ms &amp; &quot;fast&quot;"');
    expect(renderTrendSvg(runs)).toBe(svg);
  });

  it('still writes a valid chart before any run', () => {
    const empty = renderTrendSvg([]);
    expect(empty).toMatch(/^<svg [\s\S]*<\/svg>\n$/);
    expect(empty).toContain('No results yet.');
  });
});
