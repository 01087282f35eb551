import { apiMessages, complianceMessages, toasts } from '../../../shared/messages';
import { retentionMessages } from '../../../shared/retention-messages';
import { NO_FACTS } from '../../../shared/schemas/facts';
import type {
  AddressFields,
  AdminUpdateTransactionInput,
  CreateTransactionInput,
  HistoryEntry,
  UpdateTransactionInput,
} from '../../../shared/schemas/transactions';
import { AppError } from '../../errors';
import { scheduleArchive } from '../archives/schedule';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { addClosingDate, rescheduleTransaction } from '../key-dates';
import { assertActsForUser, assertOpensFor } from '../reach';
import { closed, findVisible, lockTransactions, notFound } from './access';
import { factsData, initialItems, mergeFacts, rulesOf } from './checklist';
import { changeFacts, notifyChecklistChange } from './facts';
import { type DetailRow, detailSelect, person, toPerson, toSummary, toTransaction } from './mappers';
import { nameOf, notifyOtherSide, placeOf } from './notify';
import { lockRetention } from './retention';
import { assertDeletable } from './retention-rules';
import { emitTransactionEvents } from './webhooks';

/**
 * A transaction as a whole: opening one from its template, reading, changing its
 * address and checkboxes, deleting it, and its audit trail. Every change writes an audit event in
 * the same database transaction.
 */

export async function createTransaction(ctx: CallerContext, input: CreateTransactionInput) {
  const caller = ctx.user;
  // The client names its own user in `user`; naming anyone else is refused. The transaction is
  // `agentId`'s: the caller's own, a coordinator's agent's, or an active agent an admin reaches.
  if (input.user !== undefined && input.user !== caller.id)
    throw new AppError('FORBIDDEN', apiMessages.forbidden);
  const agentId = input.agentId ?? caller.id;
  await assertOpensFor(ctx, agentId);
  const template = await ctx.db.transactionTemplate.findUnique({
    where: { type_role: { type: input.type, role: input.role } },
    select: { id: true, documents: true, optionalDocuments: true, conditionalDocuments: true },
  });
  if (!template) {
    throw new AppError('BAD_REQUEST', apiMessages.noTemplate, [
      { path: 'role', message: apiMessages.noTemplate },
    ]);
  }
  const rules = rulesOf(template.conditionalDocuments);
  const facts = mergeFacts(NO_FACTS, input.facts);
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.transaction.create({
      data: {
        userId: agentId,
        streetAddress: input.streetAddress,
        city: input.city,
        state: input.state,
        zip: input.zip,
        type: input.type,
        role: input.role,
        ...factsData(facts),
        templateId: template.id,
        // The checklist is copied: later edits of the plain items do not change a deal in
        // progress; changes to the rules reach open deals by a job. The required items first,
        // then the optional ones, then those the facts call for.
        checklistRules: rules,
        forms: { create: initialItems(template, rules, facts) },
      },
      select: { id: true },
    });
    if (input.closingDate) await addClosingDate(tx, ctx.deps, created.id, input.closingDate);
    // Read back once the insert's statement trigger has counted the new checklist.
    const row = await tx.transaction.findUniqueOrThrow({ where: { id: created.id }, select: detailSelect });
    const answer = await toTransaction(fileLinker(ctx), row, ctx.deps.clock.now());
    await recordAudit(tx, {
      ...actorOf(caller, { agentId }),
      action: 'transaction.create',
      entity: 'Transaction',
      entityId: created.id,
      transactionId: created.id,
      after: answer,
    });
    await notifyOtherSide(
      tx,
      ctx,
      row,
      `${await nameOf(tx, caller.id)} opened a transaction${agentId === caller.id ? '' : ` for ${await nameOf(tx, agentId)}`}: ${placeOf(row)}`,
      'transactionCreated',
    );
    await emitTransactionEvents(tx, ctx, ['transaction.created'], row);
    return answer;
  });
}

export async function getForUser(ctx: CallerContext, input: { id: string; userId: string }) {
  await assertActsForUser(ctx, input.userId);
  return toTransaction(fileLinker(ctx), await findVisible(ctx, input.id, input.userId), ctx.deps.clock.now());
}

export async function getAny(ctx: CallerContext, { id }: { id: string }) {
  return toTransaction(fileLinker(ctx), await findVisible(ctx, id), ctx.deps.clock.now());
}

type TransactionChanges = AddressFields &
  Partial<
    Pick<
      AdminUpdateTransactionInput,
      'isTransactionCoordinator' | 'isTitleReport' | 'isNaturalHazardDisclosure' | 'facts'
    >
  >;

async function applyChanges(
  ctx: CallerContext,
  before: DetailRow,
  data: TransactionChanges,
  options: { whileClosed: boolean },
) {
  return ctx.db.$transaction(async (tx) => {
    const locked = (await lockTransactions(tx, [before.id])).get(before.id);
    if (!locked || locked.deletedAt) throw notFound();
    if (locked.closedAt && !options.whileClosed) throw closed();
    const { facts: factsGiven, ...columns } = data;
    const facts = factsGiven ? await changeFacts(tx, locked, factsGiven, columns) : null;
    if (!facts)
      await tx.transaction.update({ where: { id: before.id }, data: columns, select: { id: true } });
    // Read after the checklist changed, so the answer shows its items and progress as they are now.
    const row = await tx.transaction.findUniqueOrThrow({ where: { id: before.id }, select: detailSelect });
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: row.userId }),
      action: 'transaction.update',
      entity: 'Transaction',
      entityId: row.id,
      transactionId: row.id,
      before: { ...toSummary(before, ctx.deps.clock.now()), ...(facts && { facts: facts.before }) },
      after: {
        ...toSummary(row, ctx.deps.clock.now()),
        ...(facts && { facts: facts.after, checklist: facts.checklist }),
      },
    });
    await notifyChecklistChange(tx, ctx, row, facts?.checklist ?? null);
    await emitTransactionEvents(tx, ctx, ['transaction.updated'], row);
    return toTransaction(fileLinker(ctx), row, ctx.deps.clock.now());
  });
}

/** The agent's form changes the address and the facts, and only while the file is open. */
export async function updateForUser(ctx: CallerContext, input: UpdateTransactionInput) {
  await assertActsForUser(ctx, input.userId);
  const before = await findVisible(ctx, input.id, input.userId);
  const { streetAddress, city, state, zip, facts } = input;
  return applyChanges(
    ctx,
    before,
    { streetAddress, city, state, zip, facts },
    { whileClosed: ctx.user.role === 'admin' },
  );
}

/**
 * Admins also set the three checkboxes, closed files included (they are not the checklist); facts
 * change a closed file's checklist, so they wait for it to be reopened.
 */
export async function updateAny(ctx: CallerContext, input: AdminUpdateTransactionInput) {
  const before = await findVisible(ctx, input.id);
  const { id: _id, ...data } = input;
  return applyChanges(ctx, before, data, { whileClosed: true });
}

/**
 * An admin closes a compliant file: every required item accepted or waived, as
 * the counters say under the transaction's lock, so a rejection racing the close cannot slip in
 * between the check and the write.
 */
export async function close(ctx: CallerContext, { id }: { id: string }) {
  await findVisible(ctx, id);
  return ctx.db.$transaction(async (tx) => {
    const locked = (await lockTransactions(tx, [id])).get(id);
    if (!locked || locked.deletedAt) throw notFound();
    if (locked.closedAt) throw new AppError('CONFLICT', complianceMessages.alreadyClosed);
    const notDone = locked.requiredCount - locked.acceptedCount - locked.waivedCount;
    if (notDone > 0)
      throw new AppError('CONFLICT', complianceMessages.notCompliant(notDone), undefined, {
        error: 'not-compliant',
      });
    const row = await tx.transaction.update({
      where: { id },
      data: { closedAt: ctx.deps.clock.now() },
      select: detailSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: row.userId }),
      action: 'transaction.close',
      entity: 'Transaction',
      entityId: id,
      transactionId: id,
      after: { closedAt: row.closedAt },
    });
    await notifyOtherSide(
      tx,
      ctx,
      row,
      `${placeOf(row)} was closed: the file is complete`,
      'documentReviewed',
    );
    // A closed file has no deadlines left to remind of; reopened, they come back.
    await rescheduleTransaction(tx, ctx.deps, row.id);
    await emitTransactionEvents(tx, ctx, ['transaction.closed'], row);
    // Sealed in the background: the close answers at once, the archive follows.
    if (row.closedAt) await scheduleArchive(tx, id, row.closedAt);
    return toTransaction(fileLinker(ctx), row, ctx.deps.clock.now());
  });
}

/** Reopens a closed file: its checklist can change again. */
export async function reopen(ctx: CallerContext, { id }: { id: string }) {
  await findVisible(ctx, id);
  return ctx.db.$transaction(async (tx) => {
    const locked = (await lockTransactions(tx, [id])).get(id);
    if (!locked || locked.deletedAt) throw notFound();
    if (!locked.closedAt) throw new AppError('CONFLICT', complianceMessages.notClosed);
    // Its documents are gone: an open file would ask for work on files that no longer exist.
    if ((await lockRetention(tx, id))?.purgedAt)
      throw new AppError('CONFLICT', retentionMessages.purgedCannotReopen);
    const row = await tx.transaction.update({
      where: { id },
      data: { closedAt: null },
      select: detailSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: row.userId }),
      action: 'transaction.reopen',
      entity: 'Transaction',
      entityId: id,
      transactionId: id,
      before: { closedAt: locked.closedAt },
    });
    await notifyOtherSide(tx, ctx, row, `${placeOf(row)} was reopened`, 'documentReviewed');
    await rescheduleTransaction(tx, ctx.deps, row.id);
    await emitTransactionEvents(tx, ctx, ['transaction.updated'], row);
    return toTransaction(fileLinker(ctx), row, ctx.deps.clock.now());
  });
}

/**
 * Soft delete: gone from every list and page; its documents and history stay on file. A closed
 * file inside its retention, or any file under legal hold, is refused (409), decided under the
 * row's lock so a hold placed meanwhile counts.
 */
export async function softDelete(ctx: CallerContext, { id }: { id: string }) {
  const before = await findVisible(ctx, id);
  await ctx.db.$transaction(async (tx) => {
    const locked = await lockRetention(tx, id);
    if (!locked || locked.deletedAt) throw notFound();
    assertDeletable(locked, ctx.deps.clock.now());
    await tx.transaction.update({ where: { id }, data: { deletedAt: ctx.deps.clock.now() } });
    await rescheduleTransaction(tx, ctx.deps, id);
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: before.userId }),
      action: 'transaction.delete',
      entity: 'Transaction',
      entityId: id,
      transactionId: id,
      before: toSummary(before, ctx.deps.clock.now()),
    });
    // The transaction as it was when deleted: it answers 404 from now on.
    await emitTransactionEvents(tx, ctx, ['transaction.deleted'], before);
  });
  return { message: toasts.transactionDeleted };
}

export async function history(ctx: CallerContext, { id }: { id: string }): Promise<HistoryEntry[]> {
  await findVisible(ctx, id);
  const rows = await ctx.db.auditEvent.findMany({
    where: { transactionId: id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 200,
    select: {
      id: true,
      action: true,
      entity: true,
      entityId: true,
      before: true,
      after: true,
      createdAt: true,
      actor: person,
      agent: person,
      apiKey: { select: { id: true, name: true } },
    },
  });
  return rows.map((row) => ({
    _id: row.id,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    actor: row.actor ? toPerson(row.actor) : null,
    apiKey: row.apiKey ? { _id: row.apiKey.id, name: row.apiKey.name } : null,
    onBehalfOf: row.agent ? toPerson(row.agent) : null,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
