import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb } from '../server/db/client';
import { Prisma } from '../server/db/generated/client';
import { sqlRows } from '../server/db/sql';
import { auditPage, auditPageSql } from '../server/services/audit-log';
import type { AuditLogInput } from '../shared/schemas/audit';
import {
  AUDIT_ACTORS,
  AUDIT_DATABASE,
  actorEmail,
  prepareAuditDatabase,
  RARE_ACTION,
  RARE_EVERY,
  seedAuditEvents,
} from './lib/audit-events';
import type { Benchmark, Goal } from './lib/benchmark';
import { withClient } from './lib/dataset';
import { explainAnalyze, normaliseSql } from './lib/explain';
import { gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { percentile, round } from './lib/stats';

/**
 * GET /api/admin/audit's work over 1,000,000 audit events (bench/lib/audit-events.ts, the events
 * the audit-verify benchmark reads): the first page, a page under each filter, ranges of days near
 * and far from the newest events, and pages deep in the trail by cursor, each p95 under 50 ms, as
 * the other lists' goal. Baseline, alternated sample by sample on the same pool: a trivial indexed
 * lookup (one event by seq), so a slow machine shows in both columns. The service's auditPage,
 * what the procedure calls: the statement and the rows mapped to answers, without HTTP.
 */

const COMMAND = 'npm run bench -- audit-log';
const EVENTS = 1_000_000;
const QUICK_EVENTS = 100_000;
const GOAL_MS = 50;
const SAMPLES = 200;
const QUICK_SAMPLES = 30;
const LIMIT = 25;

type Case = { name: string; input: AuditLogInput };

/** The cursor of the page that ends at the event of this seq: a page deep in the trail. */
async function cursorAt(url: string, seq: number): Promise<string> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ ms: string }>(
      `SELECT (extract(epoch FROM created_at) * 1000)::bigint::text AS ms FROM audit_events WHERE seq = $1`,
      [seq],
    );
    return `${rows[0]?.ms}-${seq}`;
  });
}

async function casesOf(url: string, events: number): Promise<Case[]> {
  const picks = await withClient(url, async (client) => {
    const { rows } = await client.query<{ actor: string; entity: string; tx: string }>(
      `SELECT (SELECT id FROM users WHERE email = $1) AS actor, entity_id AS entity, transaction_id AS tx
         FROM audit_events WHERE seq = $2`,
      [actorEmail(7), Math.floor(events / 2)],
    );
    return rows[0] as { actor: string; entity: string; tx: string };
  });
  const base = { limit: LIMIT };
  const deep = await cursorAt(url, Math.floor(events / 10));
  return [
    { name: 'first page, no filter', input: base },
    { name: `actorId (1 of ${AUDIT_ACTORS} people)`, input: { ...base, actorId: picks.actor } },
    { name: 'entity TransactionForm (common)', input: { ...base, entity: 'TransactionForm' } },
    { name: `entity Office (1 in ${thousands(RARE_EVERY)})`, input: { ...base, entity: 'Office' } },
    { name: 'action form.review (common)', input: { ...base, action: 'form.review' } },
    {
      name: `action ${RARE_ACTION} (1 in ${thousands(RARE_EVERY)})`,
      input: { ...base, action: RARE_ACTION },
    },
    { name: 'entityId (one record)', input: { ...base, entityId: picks.entity } },
    { name: 'transactionId (one transaction)', input: { ...base, transactionId: picks.tx } },
    { name: 'one day, a month in (from = to)', input: { ...base, from: '2026-02-01', to: '2026-02-01' } },
    { name: 'to the first day only (far from the newest)', input: { ...base, to: '2026-01-01' } },
    { name: 'five months, from the first day', input: { ...base, from: '2026-01-01', to: '2026-05-31' } },
    {
      name: `action ${RARE_ACTION} within ten days`,
      input: { ...base, action: RARE_ACTION, from: '2026-02-01', to: '2026-02-10' },
    },
    { name: 'deep page by cursor (90% down)', input: { ...base, cursor: deep } },
    { name: 'actorId, deep page by cursor', input: { ...base, actorId: picks.actor, cursor: deep } },
  ];
}

const benchmark: Benchmark = {
  name: 'audit-log',
  async run({ log, quick }) {
    const adminUrl = process.env.BENCH_DATABASE_URL;
    if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL to the benchmarks PostgreSQL (an admin URL)');
    const target = quick ? QUICK_EVENTS : EVENTS;
    const samples = quick ? QUICK_SAMPLES : SAMPLES;
    const url = await prepareAuditDatabase(adminUrl, log);
    const seedSeconds = await seedAuditEvents(url, target, log);
    await withClient(url, (client) => client.query('VACUUM ANALYZE audit_events'));
    const events = await withClient(url, async (client) => {
      const { rows } = await client.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM audit_events',
      );
      return rows[0]?.count ?? 0;
    });
    const cases = await casesOf(url, events);

    const db = createDb(url, { poolSize: 2 });
    const loadBefore = os.loadavg()[0] ?? 0;
    try {
      const ctx = { db };
      const baseline = (seq: number) =>
        sqlRows(db, Prisma.sql`SELECT id FROM audit_events WHERE seq = ${seq}::bigint`);
      const timed = async (work: () => Promise<unknown>) => {
        const began = performance.now();
        await work();
        return performance.now() - began;
      };
      const results: { name: string; p50: number; p95: number; base95: number; rows: number }[] = [];
      for (const { name, input } of cases) {
        // Warm: the plan and the index pages, as a list in use has them.
        for (let i = 0; i < 3; i++) await auditPage(ctx, input);
        const times: number[] = [];
        const baseTimes: number[] = [];
        let rows = 0;
        for (let i = 0; i < samples; i++) {
          baseTimes.push(await timed(() => baseline(1 + ((i * 7919) % events))));
          times.push(
            await timed(async () => {
              rows = (await auditPage(ctx, input)).items.length;
            }),
          );
        }
        const result = {
          name,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          base95: percentile(baseTimes, 95),
          rows,
        };
        results.push(result);
        log(
          `${name}: p95 ${round(result.p95, 2)} ms (baseline p95 ${round(result.base95, 2)} ms), ${rows} rows`,
        );
      }
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const worst = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
      const goals: Goal[] = [
        {
          name: `Audit log page over ${thousands(events)} events: worst p95 of ${results.length} queries`,
          goal: `p95 <= ${GOAL_MS} ms for each`,
          baseline: `one event by seq on the same pool, alternated: p95 ${round(worst.base95, 2)} ms beside the worst`,
          measured: `worst p95 ${round(worst.p95, 2)} ms (${worst.name}), ${samples} samples each`,
          met: worst.p95 <= GOAL_MS,
          ...(worst.p95 > GOAL_MS
            ? { gap: `${worst.name}: p95 ${round(worst.p95, 1)} ms on a ${loadNote}; see its plan below.` }
            : {}),
          figures: [{ value: worst.p95, threshold: GOAL_MS, unit: 'ms', better: 'lower' }],
        },
      ];
      const planOf = async (name: string) => {
        const input = cases.find((c) => c.name === name)?.input as AuditLogInput;
        return [
          `### Plan: ${name}`,
          '',
          '```',
          await explainAnalyze(url, auditPageSql(input), 20),
          '```',
          '',
        ];
      };
      const markdown = [
        '## Audit log',
        '',
        `Command: \`${COMMAND}\` (bench/audit-log.bench.ts).`,
        '',
        `${thousands(events)} audit events in ${AUDIT_DATABASE} (bench/lib/audit-events.ts, shared with audit-verify)` +
          (seedSeconds > 0 ? `, written by this run in ${round(seedSeconds, 1)} s.` : ', reused.') +
          ` ${AUDIT_ACTORS} people act (one event in ten is the system's), ten actions (${RARE_ACTION} one event in ` +
          `${thousands(RARE_EVERY)}), one event every 15 s from 2026-01-01.`,
        '',
        `auditPage (server/services/audit-log.ts, what GET /api/admin/audit runs): a page of ${LIMIT}, newest first ` +
          `by (created_at, seq), keyset by cursor. ${samples} samples per query, each after a baseline sample ` +
          '(one event by seq, the unique index) on the same pool of 2 connections.',
        '',
        '| Query | Rows | p50 ms | p95 ms | Baseline p95 ms |',
        '| --- | ---: | ---: | ---: | ---: |',
        ...results.map(
          (r) =>
            `| ${r.name} | ${r.rows} | ${round(r.p50, 2)} | ${round(r.p95, 2)} | ${round(r.base95, 2)} |`,
        ),
        '',
        machineLine(loadNote),
        ...gapLines(goals),
        '',
        '```sql',
        normaliseSql(auditPageSql(cases[0]?.input as AuditLogInput).text),
        '```',
        '',
        ...(await planOf('to the first day only (far from the newest)')),
        ...(await planOf(`action ${RARE_ACTION} within ten days`)),
        ...(await planOf('actorId, deep page by cursor')),
      ].join('\n');
      return { markdown, goals };
    } finally {
      await db.$disconnect();
    }
  },
};

export default benchmark;
