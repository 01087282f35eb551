import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../server/paths';
import { PERFORMANCE_DOC } from '../../server/test/performance-doc';
import type { Goal } from './benchmark';
import {
  goalScore,
  latestRuns,
  type Machine,
  RESULTS_DIR,
  type RunResult,
  readResults,
  resultFileName,
} from './results';
import { renderTrendSvg } from './trend-chart';

/**
 * docs/PERFORMANCE.md and docs/performance-trend.svg, regenerated from bench/results/ after every
 * run (`npm run bench -- report` regenerates them alone). The document shows the goals and each
 * benchmark's latest figures; the per-round tables and plans stay in the results files.
 */

export const TREND_CHART = path.join(PROJECT_ROOT, 'docs', 'performance-trend.svg');

/** Markdown lines stay under this length (long goal texts are wrapped). */
const MAX_LINE = 200;

/** The document's sections written by other runs (`npm run test:resilience`), kept as they are. */
export function sectionsOfOtherRuns(text: string): string[] {
  const sections = [...text.matchAll(/<!-- ([a-z0-9-]+):start -->[\s\S]*?<!-- \1:end -->/g)];
  return sections.filter((match) => !match[1]?.startsWith('bench-')).map((match) => match[0]);
}

/** Words wrapped into lines of at most `width` characters, the first prefixed, the rest indented. */
export function wrap(text: string, first = '', rest = '', width = MAX_LINE): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const prefix = lines.length === 0 ? first : rest;
    if (line.length > prefix.length && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else line = line.length > prefix.length ? `${line} ${word}` : line + word;
  }
  lines.push(line);
  return lines;
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export const machineText = (m: Machine) =>
  `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}`;

/** The benchmark's title: the `##` heading its details start with. */
export function titleOf(run: RunResult): string {
  return /^## (.+)$/m.exec(run.details)?.[1]?.trim() ?? run.benchmark;
}

/** Whether the run read the 1M-transaction dataset (its details name where that came from). */
export const usesDataset = (run: RunResult) => run.details.includes('bench/lib/dataset.ts');

/** A gap's explanation, cut at a word for the list of goals not met; the whole text stays in the run's file. */
export function brief(text: string, max = 500): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return `${text.slice(0, cut > 0 ? cut : max)} … (the rest in the results file)`;
}

const verdict = (goal: Goal) => (goal.met ? 'met' : '**not met**');

function scoreText(goal: Goal): string {
  const score = goalScore(goal);
  return score === undefined ? '' : ` Figure / threshold ${score.toFixed(2)}.`;
}

function goalLines(goal: Goal): string[] {
  const text =
    `${verdict(goal)}: ${goal.name}. Goal ${goal.goal}; baseline ${goal.baseline}; measured ${goal.measured}.` +
    scoreText(goal);
  return wrap(text, '- ', '  ');
}

function benchmarkSection(run: RunResult): string[] {
  const file = resultFileName(run);
  const commit = run.commit ? `, commit ${run.commit.slice(0, 7)}` : '';
  const about =
    `Last run ${when(run.startedAt)}${run.quick ? ' (quick)' : ''}${commit}, on ${machineText(run.machine)}. ` +
    `Tables and plans: [${file}](../bench/results/${file}).`;
  return [
    `### ${run.benchmark}: ${titleOf(run).replace(/^[a-h](, [a-h])*\. /, '')}`,
    '',
    `\`npm run bench -- ${run.benchmark}\`. ${about}`.length <= MAX_LINE
      ? `\`npm run bench -- ${run.benchmark}\`. ${about}`
      : wrap(`\`npm run bench -- ${run.benchmark}\`. ${about}`).join('\n'),
    '',
    ...run.goals.flatMap(goalLines),
    '',
  ];
}

export type ReportInput = {
  runs: readonly RunResult[];
  /** Sections of other runs to keep (sectionsOfOtherRuns of the current document). */
  otherSections?: readonly string[];
};

export function renderPerformanceDoc({ runs, otherSections = [] }: ReportInput): string {
  const latest = latestRuns(runs);
  const goals = latest.flatMap((run) => run.goals.map((goal) => ({ run, goal })));
  const missed = goals.filter(({ goal }) => !goal.met);
  const glance = latest.map((run) => {
    const met = run.goals.filter((goal) => goal.met).length;
    const scores = run.goals.map(goalScore).filter((score): score is number => score !== undefined);
    const worst = scores.length ? Math.max(...scores).toFixed(2) : '';
    const data = usesDataset(run) ? '1M dataset' : '';
    return `| ${run.benchmark} | ${data} | ${met} of ${run.goals.length} | ${worst} | ${when(run.startedAt)} |`;
  });
  return [
    '# Performance',
    '',
    '<!-- Generated by `npm run bench -- report` from bench/results/*.json: rerun it, never edit by hand. -->',
    '',
    "The product's performance goals, each measured by a benchmark under bench/ and the latest figure of each.",
    'A timing goal is either a ratio against a baseline measured alternately in the same run (the product route',
    'against a raw Fastify + pg route doing the same work, the same SQL run directly on pg) or a limit on a',
    'percentile of many samples, reported beside that same-run baseline. The machine is shared, so absolute',
    'figures vary between runs; compare runs on the same machine only.',
    '',
    '## How to reproduce',
    '',
    '- `npm run bench` runs every benchmark (tens of minutes: the soak alone takes 10); `npm run bench -- <name>`',
    '  runs the named ones (their names head the sections below);',
    '  `--quick` runs fewer rounds, to try a benchmark out (a quick run never replaces a full one below).',
    '- The benchmarks marked "1M dataset" below read 1,000,000 transactions made by bench/lib/dataset.ts. The first',
    '  run generates it (2 to 4 minutes) into an embedded PostgreSQL under .bench-data/ (git-ignored) and later',
    '  runs reuse it; with BENCH_DATABASE_URL (an admin URL) it is created on that server instead.',
    '- Each run writes bench/results/<time>-<name>.json: the commit, the machine, every goal with its figures',
    '  and verdict, and the per-round tables and EXPLAIN plans. This document and the chart are then',
    '  regenerated from all those files; `npm run bench -- report` regenerates them without measuring.',
    '',
    '## Trend',
    '',
    "![Each goal's figure over its threshold, one line per goal, run by run](performance-trend.svg)",
    '',
    'Each point is one run: the measured figure divided by the threshold (the threshold divided by the figure',
    'when higher is better), so 1.0 is the goal line for every unit and below it is met. A goal with two',
    'conditions shows the worse one. Yes-or-no goals (a plan uses its indexes) are in the lists only.',
    '',
    '## Goals at a glance',
    '',
    '| Benchmark | Reads | Goals met | Worst figure / threshold | Last run |',
    '| --- | --- | --- | --- | --- |',
    ...glance,
    '',
    ...(missed.length
      ? [
          '### Not met in the latest runs',
          '',
          ...missed.flatMap(({ run, goal }) =>
            wrap(
              `${run.benchmark}, ${goal.name}: ${brief(goal.gap ?? 'no explanation recorded.')}`,
              '- ',
              '  ',
            ),
          ),
          '',
        ]
      : ['Every goal is met in the latest runs.', '']),
    '## Goals and latest figures',
    '',
    ...latest.flatMap(benchmarkSection),
    ...(otherSections.length
      ? [
          '## Measured by `npm run test:resilience`',
          '',
          // One level down, under this heading; the run that writes a section replaces it whole.
          otherSections.map((section) => section.replace(/^## /gm, '### ')).join('\n\n'),
          '',
        ]
      : []),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

const run = promisify(execFile);

/** Lets Biome format the files as `npm run lint` expects (it aligns Markdown tables). */
export async function formatWithBiome(files: readonly string[]): Promise<void> {
  const biome = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
  await run(biome, ['format', '--write', ...files], { cwd: PROJECT_ROOT });
}

/** Regenerates docs/PERFORMANCE.md and docs/performance-trend.svg from bench/results/. */
export async function writeReport(
  files = { results: RESULTS_DIR, doc: PERFORMANCE_DOC, chart: TREND_CHART },
): Promise<RunResult[]> {
  const runs = await readResults(files.results);
  const current = await readFile(files.doc, 'utf8').catch(() => '');
  await writeFile(files.doc, renderPerformanceDoc({ runs, otherSections: sectionsOfOtherRuns(current) }));
  await writeFile(files.chart, renderTrendSvg(runs));
  await formatWithBiome([files.doc]);
  return runs;
}
