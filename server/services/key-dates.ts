import { keyDateMessages } from '../../shared/messages';
import {
  KEY_DATE_LABELS,
  type KeyDate,
  type KeyDateInput,
  type KeyDateKind,
  type KeyDatesAnswer,
  type ReplaceKeyDatesInput,
} from '../../shared/schemas/key-dates';
import type { Tx } from '../db/client';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { actorOf, recordAudit } from './audit';
import { calendarDayOf, dateOfCalendarDay } from './calendar-days';
import type { CallerContext } from './context';
import { scheduleReminders, sweepSoon } from './reminders';
import { findVisible, lockForChange } from './transactions/access';

/**
 * A transaction's key dates: read by whoever may see the transaction, replaced
 * as a whole by its agent or an admin while it is open. A date keeps its id (and so its sent
 * reminders) across edits: rows are matched by kind and label.
 */

const keyDateSelect = { id: true, kind: true, label: true, date: true, done: true } as const;
type KeyDateRow = { id: string; kind: string; label: string; date: Date; done: boolean };

const toKeyDate = (row: KeyDateRow): KeyDate => ({
  _id: row.id,
  kind: row.kind as KeyDateKind,
  label: row.label,
  date: calendarDayOf(row.date),
  done: row.done,
});

const labelOf = (input: Pick<KeyDateInput, 'kind' | 'label'>) =>
  input.kind === 'custom' ? (input.label ?? '') : input.label || KEY_DATE_LABELS[input.kind];

/** What the two sides match on: the kind, and for custom dates the label in any case. */
const identityOf = (kind: string, label: string) =>
  kind === 'custom' ? `custom:${label.toLowerCase()}` : kind;

async function answerOf(
  tx: Pick<Tx, 'keyDate' | 'transactionTemplate'>,
  transaction: { id: string; type: string; role: string },
): Promise<KeyDatesAnswer> {
  // One after the other: `tx` may be a transaction, whose one connection takes one query at a time.
  const rows = await tx.keyDate.findMany({
    where: { transactionId: transaction.id },
    select: keyDateSelect,
    orderBy: [{ date: 'asc' }, { position: 'asc' }],
  });
  const template = await tx.transactionTemplate.findUnique({
    where: { type_role: { type: transaction.type, role: transaction.role } },
    select: { keyDateKinds: true },
  });
  const present = new Set(rows.map((row) => row.kind));
  const suggestedKinds = (template?.keyDateKinds ?? []).filter(
    (kind): kind is KeyDateKind => kind in KEY_DATE_LABELS && !present.has(kind),
  );
  return { dates: rows.map(toKeyDate), suggestedKinds };
}

export async function listKeyDates(ctx: CallerContext, { id }: { id: string }): Promise<KeyDatesAnswer> {
  const transaction = await findVisible(ctx, id);
  return answerOf(ctx.db, transaction);
}

export async function replaceKeyDates(
  ctx: CallerContext,
  input: ReplaceKeyDatesInput,
): Promise<KeyDatesAnswer> {
  const transaction = await findVisible(ctx, input.id);
  const wanted = input.dates.map((date, position) => ({ ...date, label: labelOf(date), position }));
  const seen = new Set<string>();
  wanted.forEach((date, index) => {
    const identity = identityOf(date.kind, date.label);
    if (seen.has(identity)) {
      const message = keyDateMessages.duplicate(date.label);
      throw new AppError('BAD_REQUEST', message, [{ path: `dates.${index}`, message }]);
    }
    seen.add(identity);
  });
  return ctx.db.$transaction(async (tx) => {
    await lockForChange(tx, transaction.id);
    const before = await tx.keyDate.findMany({
      where: { transactionId: transaction.id },
      select: keyDateSelect,
    });
    await writeKeyDates(tx, transaction.id, before, wanted);
    const answer = await answerOf(tx, transaction);
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: transaction.userId }),
      action: 'transaction.key-dates',
      entity: 'Transaction',
      entityId: transaction.id,
      transactionId: transaction.id,
      before: before.map(toKeyDate),
      after: answer.dates,
    });
    await rescheduleTransaction(tx, ctx.deps, transaction.id);
    return answer;
  });
}

type WantedDate = { kind: KeyDateKind; label: string; date: string; done?: boolean; position: number };

/** Updates matching rows in place, adds new ones, removes the rest. */
async function writeKeyDates(tx: Tx, transactionId: string, before: KeyDateRow[], wanted: WantedDate[]) {
  const existing = new Map(before.map((row) => [identityOf(row.kind, row.label), row]));
  const kept = new Set<string>();
  for (const date of wanted) {
    const data = {
      label: date.label,
      date: dateOfCalendarDay(date.date),
      done: date.done ?? false,
      position: date.position,
    };
    const row = existing.get(identityOf(date.kind, date.label));
    if (row) {
      kept.add(row.id);
      await tx.keyDate.update({ where: { id: row.id }, data });
    } else {
      await tx.keyDate.create({ data: { ...data, transactionId, kind: date.kind } });
    }
  }
  const gone = before.filter((row) => !kept.has(row.id)).map((row) => row.id);
  if (gone.length > 0) await tx.keyDate.deleteMany({ where: { id: { in: gone } } });
}

/** After a transaction's dates (or its open state) changed: its reminders follow at once. */
export async function rescheduleTransaction(tx: Tx, deps: AppDeps, transactionId: string): Promise<void> {
  if (await scheduleReminders(tx, deps.clock.now(), { transactionId })) await sweepSoon(tx);
}

/** The closing date given when a transaction is opened (the create dialog asks for it). */
export async function addClosingDate(
  tx: Tx,
  deps: AppDeps,
  transactionId: string,
  day: string,
): Promise<void> {
  await tx.keyDate.create({
    data: {
      transactionId,
      kind: 'closing',
      label: KEY_DATE_LABELS.closing,
      date: dateOfCalendarDay(day),
      position: 0,
    },
  });
  await rescheduleTransaction(tx, deps, transactionId);
}
