import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { esignMessages } from '../../../shared/esign-messages';
import type { CreateSignatureRequestInput, SignatureRequest } from '../../../shared/schemas/esign';
import type { Tx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { AppError } from '../../errors';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { findForm, findVisible, lockForChange } from '../transactions/access';
import { nameOf } from '../transactions/notify';
import { transactionUploadTarget } from '../uploads';
import { hashOfToken, mailSigningLink, newSigningToken } from './mailing';
import { pageCountOf } from './pdf';

/**
 * Signature requests as the people of a transaction see them: sending an item's current PDF for
 * signature, the list, a reminder now, and voiding. Whoever may upload to the transaction may
 * send its items for signature (its agent, their coordinators, admins who reach it); a closed
 * transaction takes none, as it takes no upload.
 */

const PDF_TYPE = 'application/pdf';

export const requestSelect = {
  id: true,
  transactionId: true,
  formId: true,
  status: true,
  subject: true,
  message: true,
  ordered: true,
  createdAt: true,
  completedAt: true,
  documentSha256: true,
  voidReason: true,
  declineReason: true,
  signers: {
    select: { id: true, name: true, email: true, status: true, signedAt: true, position: true },
    orderBy: { position: 'asc' },
  },
} as const satisfies Prisma.SignatureRequestSelect;
export type RequestRow = Prisma.SignatureRequestGetPayload<{ select: typeof requestSelect }>;

export function toSignatureRequest(row: RequestRow): SignatureRequest {
  return {
    _id: row.id,
    status: row.status as SignatureRequest['status'],
    formId: row.formId,
    subject: row.subject,
    message: row.message,
    ordered: row.ordered,
    signers: row.signers.map((signer) => ({
      _id: signer.id,
      name: signer.name,
      email: signer.email,
      status: signer.status as SignatureRequest['signers'][number]['status'],
      signedAt: signer.signedAt?.toISOString() ?? null,
    })),
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    documentSha256: row.documentSha256,
    closedReason: row.voidReason ?? row.declineReason ?? null,
  };
}

const badRequest = (message: string, path: string) =>
  new AppError('BAD_REQUEST', message, [{ path, message }]);

/** The fields' rules the schema cannot state: each signer signs somewhere, every page exists. */
function checkFields(input: CreateSignatureRequestInput, pages: number) {
  input.fields.forEach((field, index) => {
    if (field.signer >= input.signers.length)
      throw badRequest(esignMessages.fieldSignerUnknown, `fields.${index}.signer`);
  });
  input.signers.forEach((_, signer) => {
    if (!input.fields.some((field) => field.signer === signer && field.kind === 'signature'))
      throw badRequest(esignMessages.signerWithoutSignature, `signers.${signer}`);
  });
  input.fields.forEach((field, index) => {
    if (field.page > pages)
      throw badRequest(esignMessages.pageOutOfRange(field.page, pages), `fields.${index}.page`);
  });
}

/** The item's current version, if it is a PDF still in storage, with its bytes. */
async function currentPdf(ctx: CallerContext, form: { id: string; fileKey: string | null; version: number }) {
  const noPdf = () => badRequest(esignMessages.noPdf, 'formId');
  if (!form.fileKey) throw noPdf();
  const version = await ctx.db.formVersion.findUnique({
    where: { formId_number: { formId: form.id, number: form.version } },
    select: { id: true, fileKey: true, contentType: true },
  });
  if (!version || version.contentType !== PDF_TYPE) throw noPdf();
  const file = await ctx.deps.storage.open(version.fileKey);
  if (!file) throw noPdf();
  const bytes = await buffer(file.body);
  let pages: number;
  try {
    pages = await pageCountOf(bytes);
  } catch {
    throw noPdf();
  }
  return { version, bytes, pages };
}

export async function createSignatureRequest(
  ctx: CallerContext,
  input: CreateSignatureRequestInput,
): Promise<SignatureRequest> {
  const { transaction, form } = await findForm(ctx, input.id, input.formId);
  await transactionUploadTarget(ctx, transaction.id);
  const pdf = await currentPdf(ctx, form);
  checkFields(input, pdf.pages);
  const documentSha256 = createHash('sha256').update(pdf.bytes).digest('hex');
  return ctx.db.$transaction(async (tx) => {
    await lockForChange(tx, transaction.id);
    // The item may have changed since it was read: what is sent is the version current now.
    const now = await tx.transactionForm.findUniqueOrThrow({
      where: { id: form.id },
      select: { version: true },
    });
    if (now.version !== form.version) throw badRequest(esignMessages.noPdf, 'formId');
    const created = await tx.signatureRequest.create({
      data: {
        transactionId: transaction.id,
        formId: form.id,
        versionId: pdf.version.id,
        subject: input.subject,
        message: input.message || null,
        ordered: input.ordered,
        documentSha256,
        createdBy: ctx.user.id,
        createdAt: ctx.deps.clock.now(),
        signers: {
          // Tokens no one knows: each signer's real one is made when the link is mailed.
          create: input.signers.map((signer, position) => ({
            position,
            name: signer.name,
            email: signer.email,
            tokenHash: hashOfToken(newSigningToken()),
          })),
        },
        fields: {
          create: input.fields.map((field) => ({
            signerPosition: field.signer,
            page: field.page,
            kind: field.kind,
            x: field.x,
            y: field.y,
            width: field.width,
            height: field.height,
          })),
        },
      },
      select: requestSelect,
    });
    const senderName = await nameOf(tx, ctx.user.id);
    const mailed = input.ordered ? created.signers.slice(0, 1) : created.signers;
    for (const signer of mailed) {
      await mailSigningLink(tx, ctx.deps, {
        signer,
        request: { subject: created.subject, message: created.message, senderName },
        reminder: false,
      });
    }
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: transaction.userId }),
      action: 'signature.sent',
      entity: 'SignatureRequest',
      entityId: created.id,
      transactionId: transaction.id,
      after: { form: form.label, subject: created.subject, signers: created.signers.length },
    });
    return toSignatureRequest(created);
  });
}

export async function listSignatureRequests(
  ctx: CallerContext,
  input: { id: string },
): Promise<SignatureRequest[]> {
  await findVisible(ctx, input.id);
  const rows = await ctx.db.signatureRequest.findMany({
    where: { transactionId: input.id },
    select: requestSelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return rows.map(toSignatureRequest);
}

/** A request of a transaction the caller may change, locked for the rest of `tx`; 404 otherwise. */
async function lockedOwnRequest(tx: Tx, transactionId: string, reqId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM signature_requests
     WHERE id = ${reqId}::uuid AND transaction_id = ${transactionId}::uuid FOR UPDATE`;
  if (!rows[0]) throw new AppError('NOT_FOUND', esignMessages.unknownRequest);
  const row = await tx.signatureRequest.findUniqueOrThrow({
    where: { id: reqId },
    select: { ...requestSelect, creator: { select: { firstName: true, lastName: true } } },
  });
  if (row.status !== 'sent') throw new AppError('CONFLICT', esignMessages.closed);
  return row;
}

/** Mails every signer whose turn it is and who has not signed, now. */
export async function remindSignatureRequest(
  ctx: CallerContext,
  input: { id: string; reqId: string },
): Promise<SignatureRequest> {
  await transactionUploadTarget(ctx, input.id);
  return ctx.db.$transaction(async (tx) => {
    const row = await lockedOwnRequest(tx, input.id, input.reqId);
    const senderName = `${row.creator.firstName} ${row.creator.lastName}`;
    const waiting = await tx.signatureSigner.findMany({
      where: { requestId: row.id, status: { in: ['pending', 'viewed'] }, mailedAt: { not: null } },
      select: { id: true, name: true, email: true },
      orderBy: { position: 'asc' },
    });
    for (const signer of waiting) {
      await mailSigningLink(tx, ctx.deps, {
        signer,
        request: { subject: row.subject, message: row.message, senderName },
        reminder: true,
      });
    }
    return toSignatureRequest(row);
  });
}

export async function voidSignatureRequest(
  ctx: CallerContext,
  input: { id: string; reqId: string; reason: string },
): Promise<SignatureRequest> {
  await transactionUploadTarget(ctx, input.id);
  return ctx.db.$transaction(async (tx) => {
    const deal = await lockForChange(tx, input.id);
    const row = await lockedOwnRequest(tx, deal.id, input.reqId);
    const updated = await tx.signatureRequest.update({
      where: { id: row.id },
      data: { status: 'voided', voidedAt: ctx.deps.clock.now(), voidReason: input.reason },
      select: requestSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: deal.userId }),
      action: 'signature.voided',
      entity: 'SignatureRequest',
      entityId: row.id,
      transactionId: deal.id,
      before: { status: row.status },
      after: { status: 'voided', reason: input.reason },
    });
    return toSignatureRequest(updated);
  });
}
