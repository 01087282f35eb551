import { archiveMessages } from '../../../shared/archive-messages';
import type { ArchiveAnswer, ArchivePublicKeyAnswer } from '../../../shared/schemas/archives';
import { AppError } from '../../errors';
import type { CallerContext, ServiceContext } from '../context';
import { findVisible } from '../transactions/access';
import { archiveKeyOf } from './key';
import { scheduleArchive } from './schedule';

/**
 * A closed file's archive as callers see it: who may is whom the transaction reaches
 * (transactions/access.ts: its agent and their coordinators, the admins whose scope holds it);
 * anyone else gets the 404 of any file they cannot see. The archive shown is the current close's.
 */

async function currentArchive(ctx: CallerContext, id: string) {
  const transaction = await findVisible(ctx, id);
  const { closedAt } = transaction;
  if (!closedAt) return null;
  const where = { transactionId_closedAt: { transactionId: id, closedAt } };
  let archive = await ctx.db.transactionArchive.findUnique({ where });
  if (!archive) {
    // Closed before archives were sealed: its archive is scheduled now, once (the row is unique
    // and the job keyed by the close), and is being prepared like any other.
    await ctx.db.$transaction((tx) => scheduleArchive(tx, id, closedAt));
    archive = await ctx.db.transactionArchive.findUnique({ where });
  }
  return { closedAt, archive };
}

export async function archiveOf(ctx: CallerContext, { id }: { id: string }): Promise<ArchiveAnswer> {
  const current = await currentArchive(ctx, id);
  if (!current) return null;
  const { archive, closedAt } = current;
  return {
    status: archive?.status === 'sealed' ? 'ready' : archive?.status === 'failed' ? 'failed' : 'preparing',
    closedAt: closedAt.toISOString(),
    sealedAt: archive?.sealedAt?.toISOString() ?? null,
    sha256: archive?.sha256 ?? null,
    bytes: archive?.bytes === null || archive?.bytes === undefined ? null : Number(archive.bytes),
  };
}

/**
 * The sealed zip of the close `answer` describes (archiveOf's, for a caller it let through),
 * opened in storage: 409 while the file is open or its archive is not sealed yet.
 */
export async function openArchive(ctx: ServiceContext, id: string, answer: ArchiveAnswer) {
  if (!answer) throw new AppError('CONFLICT', archiveMessages.closeFirst);
  const closedAt = new Date(answer.closedAt);
  const archive = await ctx.db.transactionArchive.findUnique({
    where: { transactionId_closedAt: { transactionId: id, closedAt } },
  });
  if (archive?.status !== 'sealed' || !archive.storageKey)
    throw new AppError('CONFLICT', archiveMessages.beingPrepared);
  const file = await ctx.deps.storage.open(archive.storageKey);
  // Sealed, and gone since: the daily purge takes archives with the documents they copy.
  if (!file) throw new AppError('CONFLICT', archiveMessages.purged);
  const day = answer.closedAt.slice(0, 10);
  return { ...file, filename: `archive-${id}-${day}.zip`, sha256: archive.sha256 };
}

export async function archivePublicKey(ctx: ServiceContext): Promise<ArchivePublicKeyAnswer> {
  const key = await archiveKeyOf(ctx.deps);
  return { algorithm: 'Ed25519', publicKey: key.publicKeyPem };
}
