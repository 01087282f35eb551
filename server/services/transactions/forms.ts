import { apiMessages, complianceMessages, intakeMessages } from '../../../shared/messages';
import type {
  FormVersion,
  ReasonRef,
  ReviewInput,
  TransactionForm,
  WaiverDecisionInput,
  WaiverRequestInput,
} from '../../../shared/schemas/transactions';
import type { Tx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { AppError } from '../../errors';
import { isKeyOfTransaction, keyFromLink } from '../../storage/keys';
import type { Storage } from '../../storage/storage';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { resolveReasons } from '../rejection-reasons';
import { findForm, lockForChange } from './access';
import {
  commentSelect,
  type FormRow,
  formSelect,
  toComment,
  toForm,
  toVersion,
  toWarnings,
  versionSelect,
} from './mappers';
import { excerpt, nameOf, notifyOtherSide, placeOf } from './notify';
import { emitFormEvent, emitIfNowCompliant } from './webhooks';

/**
 * The checklist of a transaction: attaching a file to an item (each file a new version), the
 * conversation on each item, the admins' review with its reasons, and waivers. Each
 * change locks the transaction first (lockForChange), re-reads the item under that lock, and is
 * audited and notified in the same database transaction; the database recounts the progress
 * there too.
 */

/**
 * Accepts the url an upload answered (absolute, /files/... or the bare key) and returns its key.
 * Only a key under this transaction's folder that exists in storage is accepted.
 */
async function keyOfUpload(storage: Storage, transactionId: string, url: string): Promise<string> {
  const key = keyFromLink(url);
  const belongs = isKeyOfTransaction(key, transactionId);
  if (!belongs || !(await storage.exists(key))) {
    throw new AppError('BAD_REQUEST', apiMessages.fileNotOfTransaction, [
      { path: 'url', message: apiMessages.fileNotOfTransaction },
    ]);
  }
  return key;
}

/** The item as it is now, read under the transaction's lock. */
const lockedForm = (tx: Tx, formId: string) =>
  tx.transactionForm.findUniqueOrThrow({ where: { id: formId }, select: formSelect });

const answerOf = (ctx: CallerContext, row: FormRow) => toForm(fileLinker(ctx), row);

/** How the item's file and decision read in the audit trail. */
const formFacts = (form: Omit<FormRow, 'comments'>) => ({
  label: form.label,
  fileKey: form.fileKey,
  status: form.status,
  version: form.version,
  waiver: form.waiverStatus,
});

export async function setFormFile(ctx: CallerContext, input: { id: string; formId: string; url: string }) {
  const { transaction, form: seen } = await findForm(ctx, input.id, input.formId);
  const key = await keyOfUpload(ctx.deps.storage, transaction.id, input.url);
  return ctx.db.$transaction(async (tx) => {
    await lockForChange(tx, transaction.id);
    const row = await attachFile(tx, ctx, { transaction, formId: seen.id, key });
    return answerOf(ctx, row);
  });
}

/**
 * Attaches a stored file of the transaction to one of its items as a new version, under the
 * transaction's lock (the caller takes it): the version copies the stored file's facts (size,
 * type, checksum, pages, pre-check warnings), the item points at it and waits for review again;
 * audited, notified (unless `quiet`: the packet split sends one notice for all its parts) and
 * announced to webhooks. The same file again changes nothing.
 */
export async function attachFile(
  tx: Tx,
  ctx: CallerContext,
  {
    transaction,
    formId,
    key,
    quiet = false,
    source = 'upload',
  }: {
    transaction: { id: string; userId: string; streetAddress: string; city: string };
    formId: string;
    key: string;
    quiet?: boolean;
    /** Where the file came from: an upload, or a completed signature request's signed file. */
    source?: 'upload' | 'esign';
  },
): Promise<FormRow> {
  const form = await lockedForm(tx, formId);
  // The same file again changes nothing (PUT is idempotent): no second version of one file.
  if (form.fileKey === key) return form;
  const stored = await tx.storedFile.findUnique({
    where: { key },
    select: { size: true, contentType: true, sha256: true, pages: true, warnings: true },
  });
  const warnings = [
    ...toWarnings(stored?.warnings ?? []),
    ...(await duplicateWarnings(tx, transaction.id, form.id, stored?.sha256 ?? null)),
  ];
  const now = ctx.deps.clock.now();
  const version = form.version + 1;
  await tx.formVersion.create({
    data: {
      formId: form.id,
      number: version,
      fileKey: key,
      size: stored?.size ?? 0,
      contentType: stored?.contentType ?? 'application/octet-stream',
      sha256: stored?.sha256 ?? null,
      pages: stored?.pages ?? null,
      warnings,
      uploadedById: ctx.user.id,
      uploadedAt: now,
      source,
    },
  });
  // A new file is a new submission: it waits for review again. Earlier files stay, as versions.
  const row = await tx.transactionForm.update({
    where: { id: form.id },
    data: {
      fileKey: key,
      status: 'pending',
      submittedAt: now,
      version,
      filePages: stored?.pages ?? null,
      fileWarnings: warnings,
    },
    select: formSelect,
  });
  await recordAudit(tx, {
    ...actorOf(ctx.user, { agentId: transaction.userId }),
    action: 'form.upload',
    entity: 'TransactionForm',
    entityId: form.id,
    transactionId: transaction.id,
    before: formFacts(form),
    after: formFacts(row),
  });
  if (!quiet)
    await notifyOtherSide(
      tx,
      ctx,
      transaction,
      `${await nameOf(tx, ctx.user.id)} uploaded "${form.label}" (version ${version}) for ${placeOf(transaction)}`,
      'documentUploaded',
    );
  await emitFormEvent(tx, ctx, 'document.uploaded', transaction.id, row);
  return row;
}

/**
 * The duplicate pre-check of a version: the same bytes are another item's
 * current file. Decided when the file is attached, since only then is its item known.
 */
async function duplicateWarnings(tx: Tx, transactionId: string, formId: string, sha256: string | null) {
  if (!sha256) return [];
  const rows = await tx.$queryRaw<Array<{ label: string }>>`
    SELECT f.label FROM transaction_forms f JOIN stored_files s ON s.key = f.file_key
     WHERE f.transaction_id = ${transactionId}::uuid AND f.id <> ${formId}::uuid AND s.sha256 = ${sha256}
     ORDER BY f.position LIMIT 1`;
  const label = rows[0]?.label;
  return label ? [{ code: 'duplicate' as const, message: intakeMessages.duplicate(label) }] : [];
}

export async function addComment(ctx: CallerContext, input: { id: string; formId: string; text: string }) {
  const caller = ctx.user;
  const { transaction, form } = await findForm(ctx, input.id, input.formId);
  return ctx.db.$transaction(async (tx) => {
    // The role is the caller's real one, whatever a client sends.
    const row = await tx.comment.create({
      data: { formId: form.id, userId: caller.id, text: input.text, role: caller.role },
      select: commentSelect,
    });
    const answer = toComment(row);
    await recordAudit(tx, {
      ...actorOf(caller, { agentId: transaction.userId }),
      action: 'comment.create',
      entity: 'Comment',
      entityId: row.id,
      transactionId: transaction.id,
      after: { form: form.label, text: answer.text },
    });
    await notifyOtherSide(
      tx,
      ctx,
      transaction,
      `${await nameOf(tx, caller.id)} commented on "${form.label}" (${placeOf(transaction)}): ${excerpt(answer.text)}`,
      'comment',
    );
    return answer;
  });
}

/** "Missing signature, Illegible or incomplete scan: please sign page 2" */
export function decisionNote(reasons: readonly ReasonRef[], text: string): string {
  return [reasons.map((reason) => reason.label).join(', '), text].filter(Boolean).join(': ');
}

type Decision = 'accepted' | 'rejected';

/**
 * Records a decision on an item's current file inside a locked transaction: the item's status,
 * the decision on its current version, and the comment that carries it. Shared by the single
 * review and the bulk accept; the caller has checked the item may be decided.
 */
export async function recordDecision(
  tx: Tx,
  ctx: CallerContext,
  form: { id: string; version: number },
  decision: { status: Decision; reasons: ReasonRef[]; text: string },
) {
  const now = ctx.deps.clock.now();
  const reasons = decision.reasons as unknown as Prisma.InputJsonValue;
  // The version's decision first: the item's status change below triggers the progress recount,
  // which reads this decision's time for transactions.compliant_at (migration 20261129090000).
  await tx.formVersion.updateMany({
    where: { formId: form.id, number: form.version },
    data: {
      decisionStatus: decision.status,
      decisionReasons: reasons,
      decisionText: decision.text || null,
      decidedAt: now,
      decidedById: ctx.user.id,
    },
  });
  await tx.transactionForm.update({ where: { id: form.id }, data: { status: decision.status } });
  // An accepted file settles a waiver asked for the same item: nothing is left to waive, and the
  // request leaves the queue. Its reason stays in the audit trail (the caller records the facts).
  if (decision.status === 'accepted')
    await tx.transactionForm.updateMany({
      where: { id: form.id, waiverStatus: 'requested' },
      data: { waiverStatus: null, waiverReason: null, waiverRequestedAt: null, waiverDecidedAt: null },
    });
  // One review action is one comment row: the decision and its reasons together.
  await tx.comment.create({
    data: {
      formId: form.id,
      userId: ctx.user.id,
      text: decision.text,
      role: ctx.user.role,
      status: decision.status,
      reasons,
    },
  });
}

/**
 * Whether the item's current file may get this decision: there is a file, it is the one the
 * reviewer saw (when they say which), and it does not have this decision already (two admins
 * accepting one item at once: the second is told, and nothing is recorded twice).
 */
function assertDecidable(form: Omit<FormRow, 'comments'>, status: Decision, seenVersion?: number) {
  if (!form.fileKey) throw new AppError('CONFLICT', complianceMessages.noFileToReview);
  if (seenVersion !== undefined && seenVersion !== form.version)
    throw new AppError('CONFLICT', complianceMessages.staleVersion(form.version));
  if (form.status === status) throw new AppError('CONFLICT', complianceMessages.alreadyDecided(status));
}

/**
 * Accept or reject an item's current file, with reasons and a comment, or comment alone. A
 * decision can be changed later (a rejection after an acceptance, say), but never made on an
 * item without a file nor on a closed file.
 */
export async function review(ctx: CallerContext, input: ReviewInput) {
  const caller = ctx.user;
  const { transaction, form: seen } = await findForm(ctx, input.id, input.formId);
  const text = input.text?.trim() ?? '';
  return ctx.db.$transaction(async (tx) => {
    if (!input.status) {
      // A comment alone: allowed on any item, closed files included.
      await tx.comment.create({ data: { formId: seen.id, userId: caller.id, text, role: caller.role } });
      await recordAudit(tx, {
        ...actorOf(caller, { agentId: transaction.userId }),
        action: 'comment.create',
        entity: 'TransactionForm',
        entityId: seen.id,
        transactionId: transaction.id,
        after: { label: seen.label, comment: text },
      });
      await notifyOtherSide(
        tx,
        ctx,
        transaction,
        `${await nameOf(tx, caller.id)} commented on "${seen.label}" (${placeOf(transaction)}): ${excerpt(text)}`,
        'comment',
      );
      return answerOf(ctx, await lockedForm(tx, seen.id));
    }
    const locked = await lockForChange(tx, transaction.id);
    const form = await lockedForm(tx, seen.id);
    assertDecidable(form, input.status, input.version);
    const reasons = await resolveReasons(tx, input.reasons);
    await recordDecision(tx, ctx, form, { status: input.status, reasons, text });
    const row = await lockedForm(tx, form.id);
    await recordAudit(tx, {
      ...actorOf(caller, { agentId: transaction.userId }),
      action: 'form.review',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: formFacts(form),
      after: {
        ...formFacts(row),
        ...(reasons.length ? { reasons: reasons.map((reason) => reason.code) } : {}),
        ...(text ? { comment: text } : {}),
      },
    });
    // One review action, one notification: the decision and its reasons together.
    const note = decisionNote(reasons, text);
    await notifyOtherSide(
      tx,
      ctx,
      transaction,
      `"${form.label}" was ${input.status} (${placeOf(transaction)})${note ? `: ${excerpt(note)}` : ''}`,
      'documentReviewed',
    );
    await emitFormEvent(tx, ctx, `document.${input.status}`, transaction.id, row);
    await emitIfNowCompliant(tx, ctx, [locked]);
    return answerOf(ctx, row);
  });
}

/** The agent (or an admin) asks for a required item to be waived. */
export async function requestWaiver(ctx: CallerContext, input: WaiverRequestInput): Promise<TransactionForm> {
  const { transaction, form: seen } = await findForm(ctx, input.id, input.formId);
  return ctx.db.$transaction(async (tx) => {
    await lockForChange(tx, transaction.id);
    const form = await lockedForm(tx, seen.id);
    if (!form.required) throw new AppError('CONFLICT', complianceMessages.waiverOnOptional);
    if (form.status === 'accepted') throw new AppError('CONFLICT', complianceMessages.waiverOnAccepted);
    if (form.waiverStatus === 'requested')
      throw new AppError('CONFLICT', complianceMessages.waiverAlreadyRequested);
    if (form.waiverStatus === 'approved')
      throw new AppError('CONFLICT', complianceMessages.waiverAlreadyApproved);
    const row = await tx.transactionForm.update({
      where: { id: form.id },
      data: {
        waiverStatus: 'requested',
        waiverReason: input.reason,
        waiverRequestedAt: ctx.deps.clock.now(),
        waiverDecidedAt: null,
      },
      select: formSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: transaction.userId }),
      action: 'waiver.request',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: formFacts(form),
      after: { ...formFacts(row), reason: input.reason },
    });
    await notifyOtherSide(
      tx,
      ctx,
      transaction,
      `${await nameOf(tx, ctx.user.id)} asked to waive "${form.label}" (${placeOf(transaction)}): ${excerpt(input.reason)}`,
      'documentUploaded',
    );
    await emitFormEvent(tx, ctx, 'waiver.requested', transaction.id, row);
    return answerOf(ctx, row);
  });
}

/** An admin approves or denies a requested waiver; an approved one counts as done. */
export async function decideWaiver(ctx: CallerContext, input: WaiverDecisionInput): Promise<TransactionForm> {
  const { transaction, form: seen } = await findForm(ctx, input.id, input.formId);
  const text = input.text?.trim() ?? '';
  const verdict = input.approve ? 'approved' : 'denied';
  return ctx.db.$transaction(async (tx) => {
    const locked = await lockForChange(tx, transaction.id);
    const form = await lockedForm(tx, seen.id);
    if (form.waiverStatus !== 'requested')
      throw new AppError('CONFLICT', complianceMessages.noWaiverRequested);
    await tx.transactionForm.update({
      where: { id: form.id },
      data: { waiverStatus: verdict, waiverDecidedAt: ctx.deps.clock.now() },
    });
    // The conversation shows the decision, as it shows a review.
    await tx.comment.create({
      data: {
        formId: form.id,
        userId: ctx.user.id,
        role: ctx.user.role,
        text: `Waiver ${verdict}${text ? `: ${text}` : '.'}`,
      },
    });
    const row = await lockedForm(tx, form.id);
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: transaction.userId }),
      action: 'waiver.decide',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: formFacts(form),
      after: { ...formFacts(row), ...(text ? { comment: text } : {}) },
    });
    await notifyOtherSide(
      tx,
      ctx,
      transaction,
      `The waiver of "${form.label}" was ${verdict} (${placeOf(transaction)})${text ? `: ${excerpt(text)}` : ''}`,
      'documentReviewed',
    );
    await emitIfNowCompliant(tx, ctx, [locked]);
    return answerOf(ctx, row);
  });
}

/** Every file of an item, newest first (the agent who owns it, or an admin). */
export async function listVersions(
  ctx: CallerContext,
  input: { id: string; formId: string },
): Promise<{ versions: FormVersion[] }> {
  const { transaction, form } = await findForm(ctx, input.id, input.formId);
  const rows = await ctx.db.formVersion.findMany({
    where: { formId: form.id },
    select: versionSelect,
    orderBy: { number: 'desc' },
  });
  const linkOf = transaction.purgedAt ? null : fileLinker(ctx);
  return { versions: await Promise.all(rows.map((row) => toVersion(linkOf, row))) };
}
