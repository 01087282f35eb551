import { TEMPLATE_RULES_BATCH } from '../../server/services/template-rules';
import { ruleInWords } from '../../shared/checklist-rules';
import type { ConditionalForm } from '../../shared/schemas/facts';
import type { Goal } from './benchmark';
import { thousands } from './report';
import type { Verdict } from './smart-checklists-data';
import { CLOSED_ROWS, DELETED_ROWS, OPEN_ROWS, RULES_AFTER, RULES_BEFORE } from './smart-checklists-data';
import type { Change, PutResult, RulesRun } from './smart-checklists-http';
import { median, percentile, round } from './stats';

/** The smart-checklists benchmark's section of docs/PERFORMANCE.md. */

export type ReportInputs = {
  quick: boolean;
  datasetLine: string;
  counts: { open: number; closed: number; deleted: number };
  files: number;
  first: RulesRun;
  changes: Change[];
  before: number[];
  during: number[];
  after: number[];
  verdict: Verdict;
  unopenedUnchanged: boolean;
  puts: PutResult;
  rounds: number;
  perRound: number;
  batchPlan: string;
  goals: Goal[];
  gapLines: string[];
  machineLine: string;
  listPath: string;
  template: { type: string; role: string };
};

const ms = (value: number) => round(value, 1);

const latencyRow = (what: string, values: number[]) =>
  `| ${what} | ${thousands(values.length)} | ${ms(median(values))} | **${ms(percentile(values, 95))}** | ${ms(percentile(values, 99))} | ${ms(Math.max(...values))} |`;

const rulesList = (rules: ConditionalForm[]) =>
  rules
    .map((rule) => `${rule.label} (${ruleInWords(rule.when).replace(/^Required when /, 'when ')})`)
    .join('; ');

export function smartChecklistsMarkdown(r: ReportInputs): string {
  const { verdict } = r;
  return [
    '## Smart checklists: a template rule change on 10,000 open transactions, and fact changes',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench -- smart-checklists\` (bench/smart-checklists.bench.ts)${r.quick ? ', **quick mode** (short rounds: indicative only)' : ''}.`,
    '',
    r.datasetLine,
    '',
    `Rows (bench/lib/smart-checklists-data.ts, prepared again each run): a template of the benchmark's own ` +
      `(${r.template.type} / ${r.template.role}) with ${thousands(r.counts.open)} open transactions of the dataset ` +
      `pointed at it (target ${thousands(OPEN_ROWS)}), and ${thousands(r.counts.closed)} closed and ${thousands(r.counts.deleted)} ` +
      `deleted ones (targets ${CLOSED_ROWS} and ${DELETED_ROWS}) that must not change. Their facts are drawn from a hash ` +
      'of each id (the same every run; each fact unknown for 10 to 15% of them). Each run resets the open ones to no ' +
      'rules and no conditional items, then the rules before the change reach them through the job ' +
      `(${round(r.first.seconds, 1)} s from no rules), then one conditional item in three gets a file ` +
      `(${thousands(r.files)} items, a form_versions row each): those stay, optional, when their rule stops holding.`,
    '',
    `- Rules before: ${rulesList(RULES_BEFORE)}.`,
    `- Rules after (the change measured): ${rulesList(RULES_AFTER)}.`,
    '',
    '### The template change and the admin list meanwhile',
    '',
    'What: the built server (`node dist/server/main.js`: production settings, its job engine with JOB_CONCURRENCY 5 ' +
      "and its cron) on the dataset. The owner changes the template's conditionalForms through " +
      '`PUT /api/admin/forms/transactions/form/:id`, which enqueues templates:apply-rules in its own transaction; ' +
      `the job copies the rules to the open transactions ${TEMPLATE_RULES_BATCH} at a time, one database transaction ` +
      "per batch, and re-plans their checklists. Timed from the PUT being sent to the job's row leaving " +
      "graphile_worker's queue (polled every 100 ms). Meanwhile the owner requests the admin list " +
      `(\`GET ${r.listPath}\`) one request at a time. The rules go to the new ones, back, and to the new ones ` +
      `again (${r.changes.length} changes, each doing real work), each change preceded by a quiet window of the same ` +
      'requests: the baseline, pooled, is those windows; a last window after the last change is shown for scale. ' +
      'Alternating windows, because the load of this shared machine moves within seconds.',
    '',
    '| Change | job s | PUT answer ms | list p95 just before ms | list p95 during ms (requests) | ratio |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...r.changes.map((c, n) => {
      const quiet = percentile(c.quiet, 95);
      const during = percentile(
        c.run.list.map((t) => t.ms),
        95,
      );
      return (
        `| ${n + 1}: to the rules ${c.to} | **${round(c.run.seconds, 1)}** | ${ms(c.run.putMs)} | ${ms(quiet)} | ` +
        `${ms(during)} (${c.run.list.length}) | ${round(during / quiet, 2)} |`
      );
    }),
    '',
    `Job attempts: ${r.changes.map((c) => c.run.attempts).join(', ')}${r.changes.some((c) => c.run.lastError) ? `; errors: ${r.changes.map((c) => c.run.lastError ?? '-').join('; ')}` : ''}.`,
    '',
    '| Admin list, pooled | requests | p50 ms | p95 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    latencyRow('just before each change (baseline)', r.before),
    latencyRow('while the job runs', r.during),
    latencyRow('after the last change (for scale)', r.after),
    '',
    `After the job: ${thousands(verdict.open)} open transactions of the template, ${verdict.withoutTheRules} without ` +
      `its rules, ${verdict.offPlan} whose checklist planning again would change, ${verdict.countersOff} whose ` +
      `required_count disagrees with their items; ${thousands(verdict.conditionalItems)} conditional items, ` +
      `${thousands(verdict.optionalWithFile)} of them kept optional with their file. Closed and deleted ones: ` +
      `${r.unopenedUnchanged ? 'unchanged (rules, facts, counters and items, compared by digest)' : '**changed**'}.`,
    '',
    `The job's batch statement (template-rules.ts), first batch, under EXPLAIN ANALYZE after the run:`,
    '',
    '```text',
    r.batchPlan,
    '```',
    '',
    '### A fact change over PUT',
    '',
    'What: `PUT /api/admin/transactions/:id` as the owner on open transactions of the template whose property ' +
      "type makes HOA decide the HOA item, with the row's own address and `facts: { hoa }` flipped each time, so each " +
      'request adds the item or removes it (the answer is checked to say so); the baseline is the same PUT without ' +
      `facts on the same rows. ${r.rounds} rounds of ${r.perRound} requests per side, alternated (which side goes ` +
      `first swaps each round), after 20 each to warm up; ${thousands(r.puts.added)} items added and ` +
      `${thousands(r.puts.removed)} removed by the measured requests. Same built server, its job engine idle.`,
    '',
    '| PUT | requests | p50 ms | p95 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    latencyRow('address only (baseline)', r.puts.baseline),
    latencyRow('with a fact change that adds or removes an item', r.puts.facts),
    '',
    `p95 per round, without / with facts (ms): ${r.puts.perRound.map((p) => `${ms(p.baseline)} / ${ms(p.facts)}`).join(', ')}.`,
    '',
    ...r.goals.map(
      (g) => `- Goal ${g.name}: ${g.goal}; measured ${g.measured}: **${g.met ? 'met' : 'not met'}**.`,
    ),
    ...r.gapLines,
    '',
    r.machineLine,
    '',
    'Reproduce: `npm run bench -- smart-checklists` (the first run of any dataset benchmark generates the dataset).',
  ].join('\n');
}
