import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { esignMessages } from '../../../shared/esign-messages';
import { apiMessages } from '../../../shared/messages';
import {
  MAX_TYPED_VALUE,
  type SignInput,
  type SigningView,
  type signingAnswer,
} from '../../../shared/schemas/esign';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { notifyUsers } from '../notifications';
import { lockTransactions } from '../transactions/access';
import { agentLink, placeOf } from '../transactions/notify';
import { completeIfAllSigned } from './completion';
import { hashOfToken, mailSigningLink } from './mailing';

/**
 * The public signing surface: a signer, with no account, holds one link whose token is the only
 * credential. Each call is counted against the caller's address first (signingPerIp), an unknown
 * token is 404, and a request completed, voided or declined answers 409. The signer sees the
 * request's subject and message, who sent it, its own fields and the document, nothing else.
 */

const closed = () => new AppError('CONFLICT', esignMessages.closed);
const unknownToken = () => new AppError('NOT_FOUND', apiMessages.notFound);
const badRequest = (message: string, path: string) =>
  new AppError('BAD_REQUEST', message, [{ path, message }]);

async function countCall(ctx: ServiceContext) {
  await ctx.deps.limits.check(['signingPerIp', ctx.ip]);
}

const signerSelect = {
  id: true,
  requestId: true,
  position: true,
  name: true,
  email: true,
  status: true,
  request: {
    select: {
      status: true,
      subject: true,
      message: true,
      transactionId: true,
      version: { select: { fileKey: true } },
      creator: { select: { firstName: true, lastName: true } },
      transaction: { select: { closedAt: true, deletedAt: true } },
    },
  },
} as const;

/** A signer who has signed or declined has nothing more to do with the request. */
const isOpenSigner = (status: string) => status === 'pending' || status === 'viewed';

async function signerOfToken(ctx: ServiceContext, token: string) {
  await countCall(ctx);
  const signer = await ctx.db.signatureSigner.findUnique({
    where: { tokenHash: hashOfToken(token) },
    select: signerSelect,
  });
  if (!signer) throw unknownToken();
  // A transaction closed or deleted while the request was out takes no signature either.
  const { transaction } = signer.request;
  if (signer.request.status !== 'sent' || transaction.closedAt || transaction.deletedAt) throw closed();
  return signer;
}

const fieldsOf = (db: ServiceContext['db'] | Tx, requestId: string, position: number) =>
  db.signatureField.findMany({
    where: { requestId, signerPosition: position },
    select: { id: true, page: true, kind: true, x: true, y: true, width: true, height: true, value: true },
    orderBy: [{ page: 'asc' }, { y: 'asc' }, { x: 'asc' }],
  });

export async function viewSigning(ctx: ServiceContext, { token }: { token: string }): Promise<SigningView> {
  const signer = await signerOfToken(ctx, token);
  let status = signer.status as SigningView['status'];
  if (status === 'pending') {
    // The first view: recorded once, with the address and browser as this server saw them.
    const marked = await ctx.db.signatureSigner.updateMany({
      where: { id: signer.id, status: 'pending' },
      data: {
        status: 'viewed',
        viewedAt: ctx.deps.clock.now(),
        ip: ctx.ip,
        userAgent: ctx.userAgent?.slice(0, 500) ?? null,
      },
    });
    if (marked.count === 1) status = 'viewed';
  }
  const { creator } = signer.request;
  return {
    request: {
      subject: signer.request.subject,
      message: signer.request.message,
      from: `${creator.firstName} ${creator.lastName}`,
    },
    signer: { name: signer.name, email: signer.email },
    documentUrl: `/api/sign/${encodeURIComponent(token)}/document`,
    fields: (await fieldsOf(ctx.db, signer.requestId, signer.position)).map((field) => ({
      _id: field.id,
      page: field.page,
      kind: field.kind as SigningView['fields'][number]['kind'],
      x: field.x,
      y: field.y,
      width: field.width,
      height: field.height,
      value: field.value,
    })),
    status,
  };
}

/** The PDF being signed (the version the request was sent with), for this link only. */
export async function signingDocument(
  ctx: ServiceContext,
  { token }: { token: string },
): Promise<{ body: Readable; size: number }> {
  const signer = await signerOfToken(ctx, token);
  const file = await ctx.deps.storage.open(signer.request.version.fileKey);
  if (!file) throw unknownToken();
  return file;
}

/** A drawn signature: a PNG data URL whose bytes start as a PNG does. */
function isPngDataUrl(value: string): boolean {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/.exec(value);
  if (!match?.[1]) return false;
  return Buffer.from(match[1].slice(0, 12), 'base64').subarray(0, 8).equals(PNG_MAGIC);
}
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type FieldRow = Awaited<ReturnType<typeof fieldsOf>>[number];

/**
 * Each of the signer's fields with the value it takes: signature and initials a PNG data URL or
 * the typed name, text the typed text (at most 200 characters), date the signing day, filled here
 * (a value sent for a date field is refused, so nobody backdates a signature).
 */
function valuesFor(fields: FieldRow[], input: SignInput, today: string): Map<string, string> {
  const sent = new Map<string, string>();
  input.values.forEach((entry, index) => {
    const field = fields.find((candidate) => candidate.id === entry.fieldId);
    if (!field) throw badRequest(esignMessages.unknownField, `values.${index}.fieldId`);
    if (field.kind === 'date') throw badRequest(esignMessages.dateFilledByServer, `values.${index}.value`);
    const value = entry.value.trim();
    if (value.startsWith('data:')) {
      if (field.kind === 'text' || !isPngDataUrl(value))
        throw badRequest(esignMessages.signatureNotImage, `values.${index}.value`);
    } else if (value.length > MAX_TYPED_VALUE) {
      throw badRequest(esignMessages.textTooLong, `values.${index}.value`);
    }
    if (value) sent.set(field.id, value);
  });
  const values = new Map<string, string>();
  for (const field of fields) {
    const value = field.kind === 'date' ? today : sent.get(field.id);
    if (!value) throw badRequest(esignMessages.fillEveryField, 'values');
    values.set(field.id, value);
  }
  return values;
}

/**
 * The signer's signature. Under the transaction's row lock and then the request's (the order
 * every change of a checklist takes), so a void, a decline or another signer's signature runs
 * before or after, never across; the last signature completes the request in the same transaction.
 */
export async function sign(ctx: ServiceContext, input: SignInput): Promise<z.infer<typeof signingAnswer>> {
  const seen = await signerOfToken(ctx, input.token);
  if (!isOpenSigner(seen.status)) throw closed();
  if (input.consent !== true) throw badRequest(esignMessages.consentRequired, 'consent');
  const fields = await fieldsOf(ctx.db, seen.requestId, seen.position);
  const now = ctx.deps.clock.now();
  const values = valuesFor(fields, input, now.toISOString().slice(0, 10));
  const written: { key: string | null } = { key: null };
  try {
    await ctx.db.$transaction(async (tx) => {
      const deal = (await lockTransactions(tx, [seen.request.transactionId])).get(seen.request.transactionId);
      const request = await lockRequest(tx, seen.requestId);
      if (!deal || deal.deletedAt || deal.closedAt || request?.status !== 'sent') throw closed();
      const marked = await tx.signatureSigner.updateMany({
        where: { id: seen.id, status: { in: ['pending', 'viewed'] } },
        data: {
          status: 'signed',
          signedAt: now,
          ip: ctx.ip,
          userAgent: ctx.userAgent?.slice(0, 500) ?? null,
        },
      });
      if (marked.count !== 1) throw closed();
      for (const [id, value] of values) await tx.signatureField.update({ where: { id }, data: { value } });
      await recordAudit(tx, {
        actorId: null,
        action: 'signature.signed',
        entity: 'SignatureRequest',
        entityId: seen.requestId,
        transactionId: deal.id,
        after: { signer: seen.email },
      });
      if (request.ordered) await mailNextSigner(tx, ctx, seen.requestId, seen.position);
      await completeIfAllSigned(tx, ctx, deal, seen.requestId, written);
    });
  } catch (error) {
    // A signed file stored for a completion that did not commit goes again.
    if (written.key) await ctx.deps.storage.delete(written.key).catch(() => {});
    throw error;
  }
  return { status: 'signed' };
}

async function lockRequest(tx: Tx, requestId: string) {
  const rows = await tx.$queryRaw<{ status: string; ordered: boolean; createdBy: string }[]>`
    SELECT status, ordered, created_by::text AS "createdBy" FROM signature_requests
     WHERE id = ${requestId}::uuid FOR UPDATE`;
  return rows[0];
}

/** In an ordered request, the next signer's turn: its link is mailed now. */
async function mailNextSigner(tx: Tx, ctx: ServiceContext, requestId: string, position: number) {
  const next = await tx.signatureSigner.findFirst({
    where: { requestId, position: { gt: position }, status: 'pending', mailedAt: null },
    orderBy: { position: 'asc' },
    select: { id: true, name: true, email: true },
  });
  if (!next) return;
  const request = await tx.signatureRequest.findUniqueOrThrow({
    where: { id: requestId },
    select: { subject: true, message: true, creator: { select: { firstName: true, lastName: true } } },
  });
  await mailSigningLink(tx, ctx.deps, {
    signer: next,
    request: {
      subject: request.subject,
      message: request.message,
      senderName: `${request.creator.firstName} ${request.creator.lastName}`,
    },
    reminder: false,
  });
}

/** The signer refuses: the whole request is declined, and its sender hears of it. */
export async function decline(
  ctx: ServiceContext,
  input: { token: string; reason: string },
): Promise<z.infer<typeof signingAnswer>> {
  const seen = await signerOfToken(ctx, input.token);
  if (!isOpenSigner(seen.status)) throw closed();
  await ctx.db.$transaction(async (tx) => {
    const deal = (await lockTransactions(tx, [seen.request.transactionId])).get(seen.request.transactionId);
    const request = await lockRequest(tx, seen.requestId);
    if (!deal || request?.status !== 'sent') throw closed();
    const now = ctx.deps.clock.now();
    const marked = await tx.signatureSigner.updateMany({
      where: { id: seen.id, status: { in: ['pending', 'viewed'] } },
      data: { status: 'declined', declinedAt: now },
    });
    if (marked.count !== 1) throw closed();
    const row = await tx.signatureRequest.update({
      where: { id: seen.requestId },
      data: { status: 'declined', declinedAt: now, declineReason: input.reason },
      select: { form: { select: { label: true } } },
    });
    await recordAudit(tx, {
      actorId: null,
      action: 'signature.declined',
      entity: 'SignatureRequest',
      entityId: seen.requestId,
      transactionId: deal.id,
      after: { signer: seen.email, reason: input.reason },
    });
    await notifyUsers(tx, [request.createdBy], {
      message: esignMessages.declinedNotice(seen.name, row.form.label, placeOf(deal)),
      link: agentLink(deal.id),
      transactionId: deal.id,
    });
  });
  return { status: 'declined' };
}
