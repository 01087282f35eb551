import type { Tx } from '../db/client';
import { enqueueJobs, JOB_KINDS } from '../queue/enqueue';
import { recordAudits } from './audit';
import type { ServiceContext } from './context';
import { applyChecklists, type FactsRow, planSummary, rulesOf, toFacts } from './transactions/checklist';
import { isEmptyPlan } from './transactions/checklist-plan';

/**
 * A template's rules reach its open transactions: each takes a copy of the new rules, and its
 * checklist follows, a batch of transactions per database transaction so no request waits long on
 * a lock. Closed and deleted files keep what they had. The job reads the template as it is when it
 * runs, and skips transactions that already hold its rules, so a rerun after a crash, or a second
 * change made meanwhile, ends with every open transaction on the template's latest rules.
 */

export const TEMPLATE_RULES_BATCH = 200;

export async function enqueueTemplateRules(tx: Tx, payload: { templateId: string; actorId: string }) {
  // One waiting job per template: a newer change replaces it, and it reads the newest rules anyway.
  await enqueueJobs(tx, [
    { kind: JOB_KINDS.applyTemplateRules, payload, jobKey: `template-rules:${payload.templateId}` },
  ]);
}

type OpenRow = FactsRow & { id: string };

export async function applyTemplateRules(
  ctx: ServiceContext,
  { templateId, actorId }: { templateId: string; actorId: string | null },
  batchSize = TEMPLATE_RULES_BATCH,
): Promise<{ transactions: number; changed: number }> {
  const template = await ctx.db.transactionTemplate.findUnique({
    where: { id: templateId },
    select: { conditionalDocuments: true },
  });
  if (!template) return { transactions: 0, changed: 0 };
  const rules = rulesOf(template.conditionalDocuments);
  const rulesJson = JSON.stringify(rules);
  let after = '00000000-0000-0000-0000-000000000000';
  let transactions = 0;
  let changed = 0;
  for (;;) {
    ctx.signal?.throwIfAborted();
    const batch = await ctx.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<OpenRow[]>`
        SELECT id::text AS id, sale_price_cents AS "salePriceCents", year_built AS "yearBuilt",
               financing, property_type AS "propertyType", hoa
          FROM transactions
         WHERE template_id = ${templateId}::uuid AND closed_at IS NULL AND deleted_at IS NULL
           AND id > ${after}::uuid
         ORDER BY id LIMIT ${batchSize}
           FOR UPDATE`;
      if (rows.length === 0) return null;
      const stale = await tx.$queryRaw<Array<{ id: string }>>`
        UPDATE transactions SET checklist_rules = ${rulesJson}::jsonb
         WHERE id = ANY (${rows.map((row) => row.id)}::uuid[])
           AND checklist_rules IS DISTINCT FROM ${rulesJson}::jsonb
        RETURNING id::text AS id`;
      const staleIds = new Set(stale.map((row) => row.id));
      const targets = rows
        .filter((row) => staleIds.has(row.id))
        .map((row) => ({ id: row.id, facts: toFacts(row), rules }));
      const plans = await applyChecklists(tx, targets);
      const events = [...plans]
        .filter(([, plan]) => !isEmptyPlan(plan))
        .map(([id, plan]) => ({
          actorId,
          action: 'transaction.checklist',
          entity: 'Transaction' as const,
          entityId: id,
          transactionId: id,
          after: { template: templateId, rules, checklist: planSummary(plan) },
        }));
      await recordAudits(tx, events);
      return { last: rows.at(-1)?.id ?? after, count: targets.length, changed: events.length };
    });
    if (!batch) break;
    after = batch.last;
    transactions += batch.count;
    changed += batch.changed;
  }
  ctx.log.info({ templateId, transactions, changed }, 'template rules applied to its open transactions');
  return { transactions, changed };
}
