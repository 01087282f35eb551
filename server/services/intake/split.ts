import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { parsePageList } from '../../../shared/intake/pages';
import { apiMessages, intakeMessages } from '../../../shared/messages';
import type { SplitInput } from '../../../shared/schemas/intake';
import type { Transaction } from '../../../shared/schemas/transactions';
import { AppError } from '../../errors';
import { isKeyOfTransaction, keyFromLink, transactionFileKey } from '../../storage/keys';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { closed, findVisible, lockForChange } from '../transactions/access';
import { attachFile } from '../transactions/forms';
import { toTransaction, toWarnings } from '../transactions/mappers';
import { nameOf, notifyOtherSide, placeOf } from '../transactions/notify';
import { blankPagesOf, PDF_TYPE, warningsOf } from './pre-checks';

/** The packet's key, if it is a stored PDF of this transaction that the pre-checks could read. */
async function packetOf(ctx: CallerContext, transactionId: string, link: string) {
  const key = keyFromLink(link);
  const stored = isKeyOfTransaction(key, transactionId)
    ? await ctx.db.storedFile.findUnique({
        where: { key },
        select: { contentType: true, pages: true, size: true, warnings: true },
      })
    : null;
  if (!stored)
    throw new AppError('BAD_REQUEST', apiMessages.fileNotOfTransaction, [
      { path: 'key', message: apiMessages.fileNotOfTransaction },
    ]);
  if (stored.contentType !== PDF_TYPE || stored.pages === null)
    throw new AppError('BAD_REQUEST', intakeMessages.splitNeedsPdf, [
      { path: 'key', message: intakeMessages.splitNeedsPdf },
    ]);
  return {
    key,
    pages: stored.pages,
    size: stored.size,
    blankPages: blankPagesOf(toWarnings(stored.warnings)),
  };
}

/** The parts, checked against the checklist and the packet: each item once, each page once. */
function plannedParts(
  input: SplitInput,
  checklist: ReadonlyArray<{ id: string; label: string }>,
  pageCount: number,
) {
  const items = new Map(checklist.map((item) => [item.id, item]));
  const seenItems = new Set<string>();
  const seenPages = new Set<number>();
  return input.parts.map((part, index) => {
    const path = ['parts', index];
    const item = items.get(part.formId);
    if (!item)
      throw new AppError('BAD_REQUEST', intakeMessages.splitUnknownItem, [
        { path: [...path, 'formId'].join('.'), message: intakeMessages.splitUnknownItem },
      ]);
    if (seenItems.has(item.id)) throw new AppError('BAD_REQUEST', intakeMessages.splitItemTwice(item.label));
    seenItems.add(item.id);
    const parsed = parsePageList(part.pages, pageCount);
    if ('error' in parsed)
      throw new AppError('BAD_REQUEST', parsed.error, [
        { path: [...path, 'pages'].join('.'), message: parsed.error },
      ]);
    for (const page of parsed.pages) {
      if (seenPages.has(page)) throw new AppError('BAD_REQUEST', intakeMessages.splitPageTwice(page));
      seenPages.add(page);
    }
    return { item, pages: parsed.pages };
  });
}

/** The stored packet, read into one buffer of its recorded size (not chunks, then a copy). */
async function readWhole(body: Readable, size: number): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    if (filled + bytes.length > size) throw new AppError('BAD_REQUEST', intakeMessages.splitNeedsPdf);
    bytes.copy(whole, filled);
    filled += bytes.length;
  }
  if (filled !== size) throw new AppError('BAD_REQUEST', intakeMessages.splitNeedsPdf);
  return whole;
}

/**
 * POST /api/transactions/{id}/split: cuts an uploaded packet into one PDF per part and attaches
 * each to its item as a new version, all in one database transaction; the agent's side hears of
 * it once. Every check comes before the first file is written; should the attach fail, the parts
 * written are removed again (the packet itself stays, as any upload does).
 */
export async function splitPacket(ctx: CallerContext, input: SplitInput): Promise<Transaction> {
  const transaction = await findVisible(ctx, input.id);
  if (transaction.closedAt) throw closed();
  const packet = await packetOf(ctx, transaction.id, input.key);
  const parts = plannedParts(input, transaction.forms, packet.pages);

  const opened = await ctx.deps.storage.open(packet.key);
  if (!opened) throw new AppError('BAD_REQUEST', apiMessages.fileNotOfTransaction);
  const bytes = await readWhole(opened.body, packet.size);
  const written: string[] = [];
  try {
    let index = 0;
    const { splitPdf } = await import('../../documents/split');
    for await (const cut of splitPdf(
      bytes,
      parts.map((part) => part.pages),
      packet.blankPages,
    )) {
      const part = parts[index];
      index += 1;
      if (!part) break;
      const pdf = Buffer.from(cut.bytes.buffer, cut.bytes.byteOffset, cut.bytes.byteLength);
      const checked =
        cut.facts.kind === 'pdf'
          ? { pages: cut.facts.pages, warnings: warningsOf(cut.facts) }
          : { pages: null, warnings: [] };
      const key = transactionFileKey(transaction.id, `${part.item.label}.pdf`, 'pdf');
      const sha256 = createHash('sha256').update(pdf).digest('hex');
      const { size } = await ctx.deps.storage.put(key, Readable.from([pdf]), { contentType: PDF_TYPE });
      written.push(key);
      await ctx.db.storedFile.create({
        data: {
          key,
          size,
          contentType: PDF_TYPE,
          sha256,
          pages: checked.pages,
          warnings: checked.warnings,
          transactionId: transaction.id,
          uploadedBy: ctx.user.id,
        },
      });
    }
    await ctx.db.$transaction(async (tx) => {
      await lockForChange(tx, transaction.id);
      for (const [index, part] of parts.entries()) {
        const key = written[index];
        if (key) await attachFile(tx, ctx, { transaction, formId: part.item.id, key, quiet: true });
      }
      const labels = parts.map((part) => `"${part.item.label}"`).join(', ');
      await notifyOtherSide(
        tx,
        ctx,
        transaction,
        `${await nameOf(tx, ctx.user.id)} uploaded ${labels} from one packet for ${placeOf(transaction)}`,
        'documentUploaded',
      );
    });
  } catch (error) {
    await ctx.db.storedFile.deleteMany({ where: { key: { in: written } } }).catch(() => {});
    await Promise.all(written.map((key) => ctx.deps.storage.delete(key).catch(() => {})));
    throw error;
  }
  return toTransaction(fileLinker(ctx), await findVisible(ctx, transaction.id), ctx.deps.clock.now());
}
