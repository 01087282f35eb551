import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { esignMessages } from '../../../shared/esign-messages';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';
import { transactionFileKey } from '../../storage/keys';
import { recordAudit } from '../audit';
import type { Caller, CallerContext, ServiceContext } from '../context';
import { notifyUsers } from '../notifications';
import type { LockedTransaction } from '../transactions/access';
import { attachFile } from '../transactions/forms';
import { agentAudience, agentLink, placeOf } from '../transactions/notify';
import { emitWebhook } from '../webhooks/events';
import { type FieldKind, type PlacedValue, signedDocument } from './pdf';
import { requestSelect, toSignatureRequest } from './requests';
import { signingIdentityOf } from './signing-identity';

/**
 * A request whose last signer signed: the values drawn into the document sent, a certificate
 * page, the instance's digital signature; the file becomes the item's next version (source
 * esign), awaiting review exactly as an upload would (the same attachFile: the queue, the
 * counters, the audit, the notices, `document.uploaded`), and `signature.completed` goes out.
 *
 * Runs in the signing's own database transaction, which holds the transaction's row and the
 * request's row locked: two last signers at once run one after the other, and only the one that
 * finds the request still `sent` with every signer signed completes it (once).
 */

const PDF_TYPE = 'application/pdf';

/** The sender, as a caller: the signed version is attached in their name, as their upload. */
async function senderAsCaller(tx: Tx, userId: string): Promise<Caller> {
  const user = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      id: true,
      role: true,
      isOwner: true,
      officeId: true,
      coordinating: { select: { agentId: true } },
    },
  });
  return {
    id: user.id,
    role: user.role,
    isOwner: user.isOwner,
    officeId: user.officeId,
    coordinatesFor: user.coordinating.map((row) => row.agentId),
  };
}

/**
 * Completes the request if every signer has signed and it is still open. The storage key of the
 * signed file is set in `written` as soon as the file exists, so the caller removes it should its
 * database transaction roll back.
 */
export async function completeIfAllSigned(
  tx: Tx,
  ctx: ServiceContext,
  deal: LockedTransaction,
  requestId: string,
  written: { key: string | null },
): Promise<void> {
  const request = await tx.signatureRequest.findUniqueOrThrow({
    where: { id: requestId },
    select: {
      id: true,
      status: true,
      subject: true,
      documentSha256: true,
      createdBy: true,
      formId: true,
      version: { select: { fileKey: true } },
      form: { select: { label: true } },
      signers: { orderBy: { position: 'asc' } },
      fields: { orderBy: [{ signerPosition: 'asc' }, { page: 'asc' }] },
    },
  });
  if (request.status !== 'sent') return;
  if (!request.signers.every((signer) => signer.status === 'signed' && signer.signedAt)) return;

  const original = await ctx.deps.storage.open(request.version.fileKey);
  if (!original) throw new AppError('CONFLICT', esignMessages.closed);
  const pdf = await buffer(original.body);
  const completedAt = ctx.deps.clock.now();
  const values: PlacedValue[] = request.fields.map((field) => ({
    page: field.page,
    kind: field.kind as FieldKind,
    x: field.x,
    y: field.y,
    width: field.width,
    height: field.height,
    value: field.value ?? '',
  }));
  const signed = await signedDocument({
    pdf,
    values,
    certificate: {
      subject: request.subject,
      documentSha256: request.documentSha256,
      completedAt,
      signers: request.signers.map((signer) => ({
        name: signer.name,
        email: signer.email,
        ip: signer.ip ?? '',
        userAgent: signer.userAgent ?? '',
        viewedAt: signer.viewedAt,
        signedAt: signer.signedAt ?? completedAt,
      })),
    },
    identity: await signingIdentityOf(ctx.deps),
  });

  const bytes = Buffer.from(signed);
  const key = transactionFileKey(deal.id, `${request.form.label} signed`, 'pdf');
  const { size } = await ctx.deps.storage.put(key, Readable.from([bytes]), { contentType: PDF_TYPE });
  written.key = key;
  await tx.storedFile.create({
    data: {
      key,
      size,
      contentType: PDF_TYPE,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      transactionId: deal.id,
      uploadedBy: request.createdBy,
    },
  });
  const sender: CallerContext = { ...ctx, user: await senderAsCaller(tx, request.createdBy) };
  await attachFile(tx, sender, { transaction: deal, formId: request.formId, key, source: 'esign' });

  const row = await tx.signatureRequest.update({
    where: { id: request.id },
    data: { status: 'completed', completedAt },
    select: requestSelect,
  });
  await recordAudit(tx, {
    actorId: null,
    action: 'signature.completed',
    entity: 'SignatureRequest',
    entityId: request.id,
    transactionId: deal.id,
    after: { form: request.form.label, signers: request.signers.map((signer) => signer.email) },
  });
  const audience = [...(await agentAudience(tx, deal.userId)), request.createdBy];
  await notifyUsers(tx, audience, {
    message: esignMessages.completedNotice(request.form.label, placeOf(deal)),
    link: agentLink(deal.id),
    transactionId: deal.id,
  });
  await emitWebhook(tx, ctx.deps, {
    type: 'signature.completed',
    data: { ...toSignatureRequest(row), transactionId: deal.id },
    transactionId: deal.id,
  });
}
