import { apiMessages, toasts } from '../../shared/messages';
import type { PagingInput } from '../../shared/schemas/common';
import type { LibraryItem } from '../../shared/schemas/libraries';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { isValidKey, keyFromLink } from '../storage/keys';
import { actorOf, recordAudit } from './audit';
import type { CallerContext } from './context';
import { fileLinker } from './file-links';
import { escapeLike, pageCount } from './paging';
import { assertBrokerageWide } from './reach';

/**
 * The forms and tutorials libraries. A form's link is the storage key of
 * a file uploaded through POST /api/uploads/forms, listed as a signed URL; a tutorial's link is
 * an http(s) URL kept as given. Reading is for everyone signed in; changes are the owner's, and
 * each writes an audit event in its own database transaction.
 */

export type LibraryKind = 'form' | 'tutorial';
/** Which library an operation works on: part of every input, set by the router of that library. */
type OfKind = { kind: LibraryKind };

const itemSelect = { id: true, name: true, link: true } as const satisfies Prisma.LibraryItemSelect;
type ItemRow = Prisma.LibraryItemGetPayload<{ select: typeof itemSelect }>;

async function toItem(ctx: CallerContext, kind: LibraryKind, row: ItemRow): Promise<LibraryItem> {
  return {
    _id: row.id,
    name: row.name,
    link: kind === 'form' ? await fileLinker(ctx)(row.link) : row.link,
  };
}

/** What the audit trail keeps of an item: the stored link (a form's key), never a signed URL. */
const snapshotOf = (kind: LibraryKind, row: ItemRow) => ({ kind, name: row.name, link: row.link });

const BY_NAME: Prisma.LibraryItemOrderByWithRelationInput[] = [{ name: 'asc' }, { id: 'asc' }];

export type LibraryPage = { items: LibraryItem[]; pages: number; total: number };

/** One page of a library by name; with a `query`, only the names that contain it. */
export async function listItems(
  ctx: CallerContext,
  input: OfKind & PagingInput & { query?: string },
): Promise<LibraryPage> {
  const { kind, page, limit } = input;
  const term = input.query?.trim();
  const where: Prisma.LibraryItemWhereInput = {
    kind,
    ...(term ? { name: { contains: escapeLike(term), mode: 'insensitive' } } : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.libraryItem.findMany({
      where,
      select: itemSelect,
      orderBy: BY_NAME,
      skip: (page - 1) * limit,
      take: limit,
    }),
    ctx.db.libraryItem.count({ where }),
  ]);
  return {
    items: await Promise.all(rows.map((row) => toItem(ctx, kind, row))),
    pages: pageCount(total, limit),
    total,
  };
}

/** A form's link must be a file uploaded for the library (its url or its key). */
async function storedLink(ctx: CallerContext, kind: LibraryKind, link: string): Promise<string> {
  if (kind === 'tutorial') return link;
  const key = keyFromLink(link);
  if (!isValidKey(key) || !key.startsWith('forms/') || !(await ctx.deps.storage.exists(key))) {
    throw new AppError('BAD_REQUEST', apiMessages.fileNotUploaded, [
      { path: 'link', message: apiMessages.fileNotUploaded },
    ]);
  }
  return key;
}

export async function createItem(ctx: CallerContext, input: OfKind & { name: string; link: string }) {
  assertBrokerageWide(ctx.user);
  const { kind } = input;
  const link = await storedLink(ctx, kind, input.link);
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.libraryItem.create({
      data: { kind, name: input.name, link },
      select: itemSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'library.create',
      entity: 'LibraryItem',
      entityId: created.id,
      after: snapshotOf(kind, created),
    });
    return created;
  });
  return toItem(ctx, kind, row);
}

async function existing(ctx: CallerContext, { kind, id }: OfKind & { id: string }): Promise<ItemRow> {
  const row = await ctx.db.libraryItem.findFirst({ where: { id, kind }, select: itemSelect });
  if (!row) throw new AppError('NOT_FOUND', apiMessages.notFound);
  return row;
}

export async function updateItem(
  ctx: CallerContext,
  input: OfKind & { id: string; name: string; link: string },
) {
  assertBrokerageWide(ctx.user);
  const { kind } = input;
  const before = await existing(ctx, input);
  const link = await storedLink(ctx, kind, input.link);
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.libraryItem.update({
      where: { id: input.id },
      data: { name: input.name, link },
      select: itemSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'library.update',
      entity: 'LibraryItem',
      entityId: input.id,
      before: snapshotOf(kind, before),
      after: snapshotOf(kind, updated),
    });
    return updated;
  });
  return toItem(ctx, kind, row);
}

/** The file of a deleted form stays in storage: a link someone saved keeps working for its hour. */
export async function deleteItem(ctx: CallerContext, input: OfKind & { id: string }) {
  assertBrokerageWide(ctx.user);
  const { kind } = input;
  const before = await existing(ctx, input);
  await ctx.db.$transaction(async (tx) => {
    await tx.libraryItem.delete({ where: { id: input.id } });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'library.delete',
      entity: 'LibraryItem',
      entityId: input.id,
      before: snapshotOf(kind, before),
    });
  });
  return { message: kind === 'form' ? toasts.formDeleted : toasts.tutorialDeleted };
}
