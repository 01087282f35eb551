import { goalScore, type RunResult } from './results';

/**
 * docs/performance-trend.svg: one small chart per benchmark, one line per goal, each point a run's
 * figure over its threshold (bench/lib/results.ts, goalScore), so every goal meets at 1.0 whatever
 * its unit. The scale is logarithmic: a goal missed by 2x sits as far above the line as one met
 * with 2x to spare sits below it. Written by hand: a few dozen polylines need no charting library.
 */

export type Series = { benchmark: string; goal: string; points: { at: Date; score: number; met: boolean }[] };

/** One series per goal that has figures, in the order of the benchmarks' first runs. */
export function trendSeries(runs: readonly RunResult[]): Series[] {
  const series = new Map<string, Series>();
  const sorted = [...runs].filter((run) => !run.quick).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const run of sorted) {
    for (const goal of run.goals) {
      const score = goalScore(goal);
      if (score === undefined || Number.isNaN(score)) continue;
      const key = `${run.benchmark}\u0000${goal.name}`;
      const entry = series.get(key) ?? { benchmark: run.benchmark, goal: goal.name, points: [] };
      entry.points.push({ at: new Date(run.startedAt), score, met: goal.met });
      series.set(key, entry);
    }
  }
  return [...series.values()];
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2'];
const PANEL = { width: 330, plotHeight: 130, top: 26, left: 40, right: 12, legendLine: 14 };
const COLUMNS = 3;
/** log2 of the score: 1/8 to 8 covers goals met with room to spare and goals missed badly. */
const LOW = -3;
const HIGH = 3;
const DAY = 86_400_000;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const fixed = (value: number) => Number(value.toFixed(1));

export function renderTrendSvg(runs: readonly RunResult[]): string {
  const series = trendSeries(runs);
  const benchmarks = [...new Set(series.map((s) => s.benchmark))];
  const times = series.flatMap((s) => s.points.map((p) => p.at.getTime()));
  // A day either side, so a benchmark run once still shows as a point inside its panel.
  // Derived from the runs alone (never the clock), so the same results always draw the same chart.
  const from = times.length ? Math.floor((Math.min(...times) - DAY) / DAY) * DAY : 0;
  const to = times.length ? Math.ceil((Math.max(...times) + DAY) / DAY) * DAY : DAY;
  const header = 44;
  // Each row of panels is as tall as its longest legend needs.
  const rowHeights = Array.from({ length: Math.ceil(benchmarks.length / COLUMNS) }, (_, row) => {
    const inRow = benchmarks.slice(row * COLUMNS, (row + 1) * COLUMNS);
    const legendRows = Math.max(1, ...inRow.map((b) => series.filter((s) => s.benchmark === b).length));
    return PANEL.top + PANEL.plotHeight + 22 + legendRows * PANEL.legendLine + 10;
  });
  const rowTop = (row: number) => header + rowHeights.slice(0, row).reduce((sum, h) => sum + h, 0);
  const width = COLUMNS * PANEL.width;
  const height = rowTop(rowHeights.length) + (rowHeights.length ? 0 : 40);
  const plotWidth = PANEL.width - PANEL.left - PANEL.right;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      'font-family="sans-serif" font-size="10" role="img" aria-labelledby="chart-title">',
    '<title id="chart-title">Benchmark goals over time: each goal\'s figure over its threshold</title>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    '<text x="8" y="18" font-size="14" font-weight="bold">Benchmark goals over time: figure / threshold</text>',
    '<text x="8" y="34" fill="#444">1.0 (dashed) is the goal; below it is met. Logarithmic scale; ' +
      'a hollow point is a run that missed the goal.</text>',
  ];
  if (benchmarks.length === 0) parts.push(`<text x="8" y="${header + 20}">No results yet.</text>`);

  benchmarks.forEach((benchmark, index) => {
    const x0 = (index % COLUMNS) * PANEL.width;
    const y0 = rowTop(Math.floor(index / COLUMNS));
    const plotTop = y0 + PANEL.top;
    const plotLeft = x0 + PANEL.left;
    const xOf = (at: Date) => fixed(plotLeft + ((at.getTime() - from) / (to - from)) * plotWidth);
    const yOf = (score: number) => {
      const log = Math.min(HIGH, Math.max(LOW, Math.log2(score > 0 ? score : 2 ** LOW)));
      return fixed(plotTop + ((HIGH - log) / (HIGH - LOW)) * PANEL.plotHeight);
    };
    parts.push(`<g class="panel" data-benchmark="${escapeXml(benchmark)}">`);
    parts.push(
      `<text x="${x0 + 8}" y="${y0 + 16}" font-size="12" font-weight="bold">${escapeXml(benchmark)}</text>`,
    );
    parts.push(
      `<rect x="${plotLeft}" y="${plotTop}" width="${plotWidth}" height="${PANEL.plotHeight}" fill="none" stroke="#ccc"/>`,
    );
    for (let log = LOW; log <= HIGH; log++) {
      const y = yOf(2 ** log);
      const label = log >= 0 ? String(2 ** log) : `1/${2 ** -log}`;
      parts.push(`<text x="${plotLeft - 4}" y="${y + 3}" text-anchor="end" fill="#666">${label}</text>`);
      if (log === 0)
        parts.push(
          `<line x1="${plotLeft}" y1="${y}" x2="${plotLeft + plotWidth}" y2="${y}" stroke="#000" stroke-dasharray="4 3"/>`,
        );
      else
        parts.push(`<line x1="${plotLeft}" y1="${y}" x2="${plotLeft + plotWidth}" y2="${y}" stroke="#eee"/>`);
    }
    const step = Math.max(1, Math.ceil((to - from) / DAY / 5));
    for (let day = from; day <= to; day += step * DAY) {
      const label = new Date(day).toISOString().slice(5, 10);
      parts.push(
        `<text x="${xOf(new Date(day))}" y="${plotTop + PANEL.plotHeight + 12}" text-anchor="middle" fill="#666">${label}</text>`,
      );
    }
    const own = series.filter((s) => s.benchmark === benchmark);
    own.forEach((entry, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const points = entry.points.map((p) => `${xOf(p.at)},${yOf(p.score)}`).join(' ');
      parts.push(`<g class="series" data-goal="${escapeXml(entry.goal)}">`);
      parts.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="1.5"/>`);
      for (const point of entry.points)
        parts.push(
          `<circle cx="${xOf(point.at)}" cy="${yOf(point.score)}" r="2.5" stroke="${colour}" ` +
            `fill="${point.met ? colour : '#fff'}"><title>${escapeXml(
              `${entry.goal}: ${point.score.toFixed(2)} on ${point.at.toISOString().slice(0, 16)}Z`,
            )}</title></circle>`,
        );
      const legendY = plotTop + PANEL.plotHeight + 28 + i * PANEL.legendLine;
      parts.push(`<rect x="${x0 + 8}" y="${legendY - 7}" width="10" height="3" fill="${colour}"/>`);
      parts.push(`<text x="${x0 + 22}" y="${legendY}">${escapeXml(shorten(entry.goal, 56))}</text>`);
      parts.push('</g>');
    });
    parts.push('</g>');
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
