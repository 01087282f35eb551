import type pg from 'pg';
import { toFacts } from '../../server/services/transactions/checklist';
import { type PlanItem, planChecklist } from '../../server/services/transactions/checklist-plan';
import type { ConditionalForm } from '../../shared/schemas/facts';
import { withClient } from './dataset';

/**
 * The rows of the smart-checklists benchmark on the 1M dataset: a template of its own, 10,000 open
 * transactions pointed at it (with some closed and deleted ones that must never change), facts
 * spread over them from a hash of each id (the same every run), and the checks that say a
 * template's rules reached every open transaction and nothing else.
 */

export const BENCH_TEMPLATE = { type: 'Bench Conditional Purchase', role: 'Buyer' } as const;
export const OPEN_ROWS = 10_000;
export const CLOSED_ROWS = 500;
export const DELETED_ROWS = 100;
export const HOA_LABEL = 'HOA Resale Certificate';

/** The template's rules before the change measured: set (by the job) while preparing. */
export const RULES_BEFORE: ConditionalForm[] = [
  { label: 'Lead-Based Paint Disclosure', when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] },
  { label: HOA_LABEL, when: [{ fact: 'hoa', op: 'eq', value: true }] },
  { label: 'FHA Amendatory Clause', when: [{ fact: 'financing', op: 'eq', value: 'fha' }] },
  { label: 'Condo Questionnaire', when: [{ fact: 'propertyType', op: 'eq', value: 'condo' }] },
  {
    label: 'Jumbo Loan Appraisal Review',
    when: [
      { fact: 'salePriceCents', op: 'gte', value: 100_000_000 },
      { fact: 'financing', op: 'in', value: ['conventional', 'other'] },
    ],
  },
];

/**
 * The change measured: one rule kept as it is, one narrowed (items it no longer holds for go, or
 * stay optional with their file), one widened (new items, and new reasons on the old ones), one
 * dropped, one with a lower threshold, and a new one.
 */
export const RULES_AFTER: ConditionalForm[] = [
  { label: 'Lead-Based Paint Disclosure', when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] },
  {
    label: HOA_LABEL,
    when: [
      { fact: 'hoa', op: 'eq', value: true },
      { fact: 'propertyType', op: 'in', value: ['condo', 'townhouse', 'single-family'] },
    ],
  },
  { label: 'FHA Amendatory Clause', when: [{ fact: 'financing', op: 'in', value: ['fha', 'va'] }] },
  {
    label: 'Jumbo Loan Appraisal Review',
    when: [
      { fact: 'salePriceCents', op: 'gte', value: 75_000_000 },
      { fact: 'financing', op: 'in', value: ['conventional', 'other'] },
    ],
  },
  {
    label: 'Septic Inspection Report',
    when: [
      { fact: 'propertyType', op: 'in', value: ['single-family', 'land'] },
      { fact: 'yearBuilt', op: 'lt', value: 1990 },
    ],
  },
];

/** A number from 0 to n - 1 drawn from the row's id and a salt: the same every run. */
const draw = (salt: string, n: number) => `(abs(hashtext(t.id::text || '${salt}')) % ${n})`;

/**
 * The template and its rows, made once and kept (the dataset is reused). Every run then puts the
 * open rows back where they started: their facts drawn again from their ids, no rules and no
 * conditional items, and the template without rules, written directly (no job).
 */
export async function prepareRows(url: string): Promise<{ templateId: string }> {
  return withClient(url, async (client) => {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO transaction_templates (type, role, documents, optional_documents, conditional_documents)
       VALUES ($1, $2, ARRAY['Purchase Agreement', 'Agency Disclosure', 'Closing Statement'], ARRAY[]::text[], '[]')
       ON CONFLICT (type, role) DO UPDATE SET conditional_documents = '[]'
       RETURNING id::text AS id`,
      [BENCH_TEMPLATE.type, BENCH_TEMPLATE.role],
    );
    const templateId = rows[0]?.id;
    if (!templateId) throw new Error('the benchmark template was not written');
    // Top up each kind of row (another benchmark may have closed or deleted one since).
    const kinds = [
      { n: OPEN_ROWS, where: 'closed_at IS NULL AND deleted_at IS NULL' },
      { n: CLOSED_ROWS, where: 'closed_at IS NOT NULL AND deleted_at IS NULL' },
      { n: DELETED_ROWS, where: 'closed_at IS NULL AND deleted_at IS NOT NULL' },
    ];
    for (const kind of kinds) {
      await client.query(
        `UPDATE transactions SET template_id = $1::uuid
          WHERE id IN (SELECT id FROM transactions
                        WHERE ${kind.where} AND template_id IS NULL
                        ORDER BY md5(id::text)
                        LIMIT greatest(0, $2::int - (SELECT count(*) FROM transactions
                                                      WHERE template_id = $1::uuid AND ${kind.where})))`,
        [templateId, kind.n],
      );
    }
    // Facts: about one in ten unknown each, the rest spread so that every rule holds for some.
    await client.query(
      `UPDATE transactions t SET
         sale_price_cents = CASE WHEN ${draw('p0', 100)} < 15 THEN NULL
                                 ELSE (150000 + ${draw('p', 2350000)})::bigint * 100 END,
         year_built = CASE WHEN ${draw('y0', 100)} < 10 THEN NULL ELSE 1900 + ${draw('y', 124)} END,
         financing = CASE WHEN ${draw('f0', 100)} < 10 THEN NULL
                          ELSE (ARRAY['cash', 'conventional', 'conventional', 'fha', 'va', 'other'])[1 + ${draw('f', 6)}] END,
         property_type = CASE WHEN ${draw('t0', 100)} < 10 THEN NULL
                              ELSE (ARRAY['single-family', 'single-family', 'condo', 'townhouse', 'multi-family', 'land', 'commercial'])[1 + ${draw('t', 7)}] END,
         hoa = CASE WHEN ${draw('h0', 100)} < 15 THEN NULL ELSE ${draw('h', 100)} < 40 END,
         checklist_rules = CASE WHEN t.closed_at IS NULL AND t.deleted_at IS NULL THEN '[]'::jsonb
                                ELSE $2::jsonb END
        WHERE t.template_id = $1::uuid`,
      [templateId, JSON.stringify(RULES_BEFORE)],
    );
    await client.query(
      `DELETE FROM transaction_forms f USING transactions t
        WHERE f.transaction_id = t.id AND f.conditional
          AND t.template_id = $1::uuid AND t.closed_at IS NULL AND t.deleted_at IS NULL`,
      [templateId],
    );
    // A job left by an interrupted run would be taken for this run's.
    await client.query(
      `DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks k
        WHERE k.id = j.task_id AND k.identifier = 'templates:apply-rules'`,
    );
    await client.query('COMMIT');
    await client.query('ANALYZE transactions, transaction_forms');
    return { templateId };
  });
}

/**
 * A file on one conditional item in three (by a hash of its transaction and label), as an upload
 * leaves it: the item's current version and its form_versions row. Those items stay, optional,
 * when their rule stops holding.
 */
export async function attachFiles(url: string, templateId: string): Promise<number> {
  return withClient(url, async (client) => {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string }>(
      `UPDATE transaction_forms f
          SET version = 1, submitted_at = now(), updated_at = now(),
              file_key = format('transactions/%s/%s-bench.pdf', f.transaction_id, gen_random_uuid())
         FROM transactions t
        WHERE f.transaction_id = t.id AND f.conditional AND f.version = 0
          AND t.template_id = $1::uuid AND t.closed_at IS NULL AND t.deleted_at IS NULL
          AND abs(hashtext(f.transaction_id::text || f.label)) % 3 = 0
       RETURNING f.id::text AS id`,
      [templateId],
    );
    await client.query(
      `INSERT INTO form_versions (form_id, number, file_key, size, content_type, uploaded_by, uploaded_at)
       SELECT f.id, 1, f.file_key, 250000, 'application/pdf', t.user_id, f.submitted_at
         FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
        WHERE f.id = ANY ($1::uuid[])`,
      [rows.map((row) => row.id)],
    );
    await client.query('COMMIT');
    return rows.length;
  });
}

/** What the rows of the template look like: to compare closed and deleted ones before and after. */
export async function fingerprintOfUnopened(url: string, templateId: string): Promise<string> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ digest: string }>(
      `SELECT md5(coalesce(string_agg(s.x, '|' ORDER BY s.x), '')) AS digest FROM (
         SELECT t.id::text || t.checklist_rules::text || concat_ws(',', t.sale_price_cents, t.year_built,
                  t.financing, t.property_type, t.hoa, t.required_count, t.missing_count) ||
                coalesce((SELECT string_agg(concat_ws(',', f.id, f.label, f.required, f.conditional,
                                    f.required_because, f.position, f.version), ';' ORDER BY f.position)
                            FROM transaction_forms f WHERE f.transaction_id = t.id), '') AS x
           FROM transactions t
          WHERE t.template_id = $1::uuid AND (t.closed_at IS NOT NULL OR t.deleted_at IS NOT NULL)) AS s`,
      [templateId],
    );
    return rows[0]?.digest ?? '';
  });
}

export type Verdict = {
  open: number;
  withoutTheRules: number;
  /** Open transactions whose checklist still differs from what their facts and rules ask. */
  offPlan: number;
  /** Open transactions whose required_count disagrees with their required items. */
  countersOff: number;
  conditionalItems: number;
  optionalWithFile: number;
};

/**
 * Every open transaction of the template holds the template's rules, and planning its checklist
 * again (server/services/transactions/checklist-plan.ts) changes nothing.
 */
export async function verifyOpen(url: string, templateId: string): Promise<Verdict> {
  return withClient(url, async (client) => {
    const { rows: open } = await client.query<{
      id: string;
      salePriceCents: string | null;
      yearBuilt: number | null;
      financing: string | null;
      propertyType: string | null;
      hoa: boolean | null;
      rules: ConditionalForm[];
      holds: boolean;
      countersOff: boolean;
    }>(
      `SELECT t.id::text AS id, t.sale_price_cents AS "salePriceCents", t.year_built AS "yearBuilt",
              t.financing, t.property_type AS "propertyType", t.hoa, t.checklist_rules AS rules,
              t.checklist_rules = tt.conditional_documents AS holds,
              t.required_count <> (SELECT count(*) FROM transaction_forms f
                                    WHERE f.transaction_id = t.id AND f.required) AS "countersOff"
         FROM transactions t JOIN transaction_templates tt ON tt.id = t.template_id
        WHERE t.template_id = $1::uuid AND t.closed_at IS NULL AND t.deleted_at IS NULL`,
      [templateId],
    );
    const { rows: items } = await client.query<PlanItem & { transactionId: string }>(
      `SELECT f.id::text AS id, f.transaction_id::text AS "transactionId", f.label, f.required, f.conditional,
              f.required_because AS "requiredBecause", f.version > 0 AS "hasFile",
              EXISTS (SELECT 1 FROM comments c WHERE c.form_id = f.id) AS "hasComments"
         FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
        WHERE t.template_id = $1::uuid AND t.closed_at IS NULL AND t.deleted_at IS NULL`,
      [templateId],
    );
    const itemsOf = new Map<string, PlanItem[]>();
    for (const item of items)
      itemsOf.set(item.transactionId, [...(itemsOf.get(item.transactionId) ?? []), item]);
    let offPlan = 0;
    for (const row of open) {
      const plan = planChecklist(
        itemsOf.get(row.id) ?? [],
        row.rules,
        toFacts({ ...row, salePriceCents: row.salePriceCents === null ? null : Number(row.salePriceCents) }),
      );
      if (plan.add.length + plan.change.length + plan.remove.length > 0) offPlan++;
    }
    const conditional = items.filter((item) => item.conditional);
    return {
      open: open.length,
      withoutTheRules: open.filter((row) => !row.holds).length,
      offPlan,
      countersOff: open.filter((row) => row.countersOff).length,
      conditionalItems: conditional.length,
      optionalWithFile: conditional.filter((item) => !item.required && item.hasFile).length,
    };
  });
}

/** The job's queue entry for the template: gone once it is done; its attempts and error meanwhile. */
export async function jobState(
  client: pg.Client,
): Promise<{ pending: number; attempts: number; lastError: string | null }> {
  const { rows } = await client.query<{ pending: number; attempts: number; last_error: string | null }>(
    `SELECT count(*)::int AS pending, coalesce(max(j.attempts), 0)::int AS attempts, max(j.last_error) AS last_error
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
      WHERE k.identifier = 'templates:apply-rules'`,
  );
  const row = rows[0];
  return { pending: row?.pending ?? 0, attempts: row?.attempts ?? 0, lastError: row?.last_error ?? null };
}
