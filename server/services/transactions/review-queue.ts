import { complianceMessages } from '../../../shared/messages';
import {
  type BulkReviewInput,
  DEFAULT_REVIEW_TARGET_HOURS,
  type ReviewKind,
  type ReviewQueueInput,
  type ReviewQueuePage,
} from '../../../shared/schemas/compliance';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import { AppError } from '../../errors';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { notifyUsers } from '../notifications';
import { pageCount } from '../paging';
import { officeOfLists, reachesTransaction, transactionsOfOfficeSql } from '../reach';
import { lockTransactions, notFound } from './access';
import { recordDecision } from './forms';
import { formSelect, toForm, toPerson } from './mappers';
import { agentAudience, agentLink, excerpt, nameOf, placeOf } from './notify';
import { emitFormEventById, emitIfNowCompliant } from './webhooks';

/**
 * The compliance desk's queue: every undecided upload and every requested waiver
 * of open, undeleted transactions the admin reaches (an office admin: its office's), oldest
 * first, and the bulk accept that empties it.
 */

type EntryRow = { form_id: string; transaction_id: string; queued_at: Date; kind: ReviewKind; total: number };

/**
 * One page of the queue and its total in one statement. Each kind of entry is read on its own,
 * oldest first and cut at the end of the page (`page * limit` entries), then the two are merged in
 * time order: undecided uploads from transaction_forms_review_queue_idx (submitted_at), requested
 * waivers from transaction_forms_waiver_queue_idx (waiver_requested_at), each checked against its
 * transaction (open, not deleted, the filters) until enough are found; or, when a filter leaves
 * few transactions (one agent), from those transactions through transactions_review_queue_idx
 * and their items. Merging the two kinds before the cut made PostgreSQL read and sort every
 * entry of the queue for any page (the constant `kind` in the ORDER BY hid the indexes' order):
 * 70 to 240 ms on the benchmark's 16,000 entries (docs/PERFORMANCE.md). `t.queue_count > 0` holds
 * for every transaction with an entry; with an agent it lets the entries use the partial index.
 * The total is the sum of the transactions' queue_count, which the database keeps, read from
 * transactions_review_queue_idx: counting the forms themselves would visit every entry.
 * `office` (settled by services/reach.ts officeOfLists; null: every office) keeps the entries'
 * walk oldest first, each checked against its transaction's office as against the other
 * filters: an office holding a tenth of the queue reads ten entries per one shown, where starting
 * from its transactions would read and sort every entry of a large office. Its total is read from
 * transactions_office_queue_idx (migration 20261203100000), the office's share of the kept counts.
 * Exported for the benchmark's raw baseline.
 */
export function reviewQueueSql(
  { page, limit, type, agentId }: Omit<ReviewQueueInput, 'officeId'>,
  office: string | null = null,
): Prisma.Sql {
  const filters = [
    Prisma.sql`t.closed_at IS NULL AND t.deleted_at IS NULL`,
    ...(office === null ? [] : [transactionsOfOfficeSql(office)]),
    ...(agentId ? [Prisma.sql`t.user_id = ${agentId}::uuid`] : []),
    ...(type ? [Prisma.sql`t.type = ${type}`] : []),
  ];
  const where = Prisma.join(filters, ' AND ');
  const queued = Prisma.sql`t.queue_count > 0 AND ${where}`;
  // One agent's entries are found from their transactions (see above); otherwise the entries are
  // walked oldest first, and the planner must not be tempted into starting from the transactions
  // (it underestimates how many open ones have an entry, and would then visit them all).
  const entryWhere = agentId ? queued : where;
  const upTo = page * limit;
  return Prisma.sql`
    WITH total AS (
      SELECT coalesce(sum(t.queue_count), 0)::int AS total FROM transactions t WHERE ${queued}
    ), entries AS (
      SELECT e.form_id, e.transaction_id, e.queued_at, e.kind
        FROM ((SELECT f.id AS form_id, f.transaction_id, f.submitted_at AS queued_at, 'document' AS kind
                 FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
                WHERE f.file_key IS NOT NULL AND f.status = 'pending' AND ${entryWhere}
                ORDER BY f.submitted_at, f.id
                LIMIT ${upTo})
              UNION ALL
              (SELECT f.id, f.transaction_id, f.waiver_requested_at, 'waiver'
                 FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
                WHERE f.waiver_status = 'requested' AND ${entryWhere}
                ORDER BY f.waiver_requested_at, f.id
                LIMIT ${upTo})) AS e
       ORDER BY e.queued_at, e.form_id, e.kind
       LIMIT ${limit} OFFSET ${(page - 1) * limit}
    )
    SELECT total.total, entries.form_id::text AS form_id, entries.transaction_id::text AS transaction_id,
           entries.queued_at, entries.kind
      FROM total LEFT JOIN entries ON true
     ORDER BY entries.queued_at, entries.form_id, entries.kind`;
}

/** Whether an item that entered the queue at `queuedAt` waits longer than its office's target. */
export const isOverdue = (queuedAt: Date, now: number, targetHours: number | null): boolean =>
  now - queuedAt.getTime() > (targetHours ?? DEFAULT_REVIEW_TARGET_HOURS) * 3_600_000;

export async function reviewQueue(ctx: CallerContext, input: ReviewQueueInput): Promise<ReviewQueuePage> {
  const office = officeOfLists(ctx.user, input.officeId);
  const rows = await sqlRows<EntryRow>(ctx.db, reviewQueueSql(input, office));
  const total = rows[0]?.total ?? 0;
  const entries = rows.filter((row) => row.form_id !== null);
  const [forms, transactions] = await Promise.all([
    ctx.db.transactionForm.findMany({
      where: { id: { in: entries.map((entry) => entry.form_id) } },
      select: formSelect,
    }),
    ctx.db.transaction.findMany({
      where: { id: { in: [...new Set(entries.map((entry) => entry.transaction_id))] } },
      select: {
        id: true,
        streetAddress: true,
        city: true,
        state: true,
        zip: true,
        type: true,
        role: true,
        user: { select: { id: true, firstName: true, lastName: true } },
        office: { select: { id: true, name: true, reviewTargetHours: true } },
      },
    }),
  ]);
  const formById = new Map(forms.map((form) => [form.id, form]));
  const transactionById = new Map(transactions.map((row) => [row.id, row]));
  const linkOf = fileLinker(ctx);
  const now = ctx.deps.clock.now().getTime();
  const items = [];
  for (const entry of entries) {
    const form = formById.get(entry.form_id);
    const transaction = transactionById.get(entry.transaction_id);
    if (!form || !transaction) continue; // deleted between the two reads: gone from the queue too
    const { id, user, office: itsOffice, ...address } = transaction;
    items.push({
      transaction: { _id: id, ...address, user: toPerson(user) },
      form: await toForm(linkOf, form),
      submittedAt: entry.queued_at.toISOString(),
      waitingSeconds: Math.max(0, Math.floor((now - entry.queued_at.getTime()) / 1000)),
      kind: entry.kind,
      overdue: isOverdue(entry.queued_at, now, itsOffice?.reviewTargetHours ?? null),
      office: itsOffice ? { _id: itsOffice.id, name: itsOffice.name } : null,
    });
  }
  return { items, totalPages: pageCount(total, input.limit), totalItems: total };
}

/**
 * Accepts every listed document in one database transaction, or none: the
 * transactions are locked in id order (as every checklist change locks them), then each item is
 * checked as it is now; the first that no longer awaits review (decided meanwhile, replaced by a
 * newer file than the one given, or its file closed) refuses the whole batch, naming it. An item
 * of a transaction the admin does not reach (another office's) is not found, as any unknown one.
 * Each agent hears once, however many of their documents were accepted.
 */
export async function bulkAccept(
  ctx: CallerContext,
  { items }: BulkReviewInput,
): Promise<{ reviewed: number }> {
  return ctx.db.$transaction(async (tx) => {
    const transactions = await lockTransactions(
      tx,
      items.map((item) => item.transactionId),
    );
    const forms = new Map(
      (
        await tx.transactionForm.findMany({
          where: { id: { in: items.map((item) => item.formId) } },
          select: { ...formSelect, transactionId: true },
        })
      ).map((form) => [form.id, form]),
    );
    const accepted: Array<{ form: NonNullable<ReturnType<typeof forms.get>>; transactionId: string }> = [];
    for (const item of items) {
      const transaction = transactions.get(item.transactionId);
      const form = forms.get(item.formId);
      if (
        !transaction ||
        transaction.deletedAt ||
        !reachesTransaction(ctx.user, transaction) ||
        !form ||
        form.transactionId !== transaction.id
      )
        throw notFound();
      const awaiting =
        form.fileKey !== null &&
        form.status === 'pending' &&
        transaction.closedAt === null &&
        (item.version === undefined || item.version === form.version);
      if (!awaiting)
        throw new AppError(
          'CONFLICT',
          complianceMessages.notAwaitingReview(form.label, placeOf(transaction)),
        );
      accepted.push({ form, transactionId: transaction.id });
    }
    for (const { form, transactionId } of accepted) {
      await recordDecision(tx, ctx, form, { status: 'accepted', reasons: [], text: '' });
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'form.review',
        entity: 'TransactionForm',
        entityId: form.id,
        transactionId,
        before: { label: form.label, status: form.status, version: form.version },
        after: { label: form.label, status: 'accepted', version: form.version, bulk: true },
      });
      await emitFormEventById(tx, ctx, 'document.accepted', transactionId, form.id);
    }
    await emitIfNowCompliant(tx, ctx, [...transactions.values()]);
    // One notification per agent, naming what was accepted.
    const reviewer = await nameOf(tx, ctx.user.id);
    const byAgent = new Map<string, typeof accepted>();
    for (const entry of accepted) {
      const agentId = transactions.get(entry.transactionId)?.userId ?? '';
      byAgent.set(agentId, [...(byAgent.get(agentId) ?? []), entry]);
    }
    for (const [agentId, entries] of byAgent) {
      if (agentId === ctx.user.id) continue;
      const first = entries[0];
      const place = (id: string) => {
        const transaction = transactions.get(id);
        return transaction ? placeOf(transaction) : '';
      };
      const names = entries
        .map((entry) => `"${entry.form.label}" (${place(entry.transactionId)})`)
        .join(', ');
      const singleDeal = entries.every((entry) => entry.transactionId === first?.transactionId);
      // The agent hears of it, and the coordinators who work its files.
      await notifyUsers(
        tx,
        await agentAudience(tx, agentId),
        {
          message: `${reviewer} accepted ${entries.length === 1 ? 'a document' : `${entries.length} documents`}: ${excerpt(names, 240)}`,
          link: singleDeal && first ? agentLink(first.transactionId) : '/home',
          ...(singleDeal && first ? { transactionId: first.transactionId } : {}),
          event: 'documentReviewed',
        },
        ctx.deps,
      );
    }
    return { reviewed: accepted.length };
  });
}
