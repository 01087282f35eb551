import { apiMessages, toasts } from '../../shared/messages';
import type { LibraryItem } from '../../shared/schemas/libraries';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { isValidKey, keyFromLink } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { escapeLike, pageCount } from './paging';

/**
 * The forms and tutorials libraries (DESIGN.md section 11). A form's link is the storage key of
 * a file uploaded through POST /api/uploads/forms, listed as a signed URL; a tutorial's link is
 * an http(s) URL kept as given. Reading is for everyone signed in; changes are the owner's.
 */

export type LibraryKind = 'form' | 'tutorial';
type Deps = Pick<AppDeps, 'db' | 'storage'>;

const itemSelect = { id: true, name: true, link: true } as const satisfies Prisma.LibraryItemSelect;
type ItemRow = Prisma.LibraryItemGetPayload<{ select: typeof itemSelect }>;

async function toItem(storage: Storage, kind: LibraryKind, row: ItemRow): Promise<LibraryItem> {
  return {
    _id: row.id,
    name: row.name,
    link: kind === 'form' ? await storage.signedUrl(row.link) : row.link,
  };
}

const BY_NAME: Prisma.LibraryItemOrderByWithRelationInput[] = [{ name: 'asc' }, { id: 'asc' }];

export async function listItems(
  deps: Deps,
  kind: LibraryKind,
  input: { page: number; limit: number; query?: string },
): Promise<{ items: LibraryItem[]; pages: number; total: number }> {
  const term = input.query?.trim();
  const where: Prisma.LibraryItemWhereInput = {
    kind,
    ...(term ? { name: { contains: escapeLike(term), mode: 'insensitive' } } : {}),
  };
  const [rows, total] = await Promise.all([
    deps.db.libraryItem.findMany({
      where,
      select: itemSelect,
      orderBy: BY_NAME,
      skip: (input.page - 1) * input.limit,
      take: input.limit,
    }),
    deps.db.libraryItem.count({ where }),
  ]);
  return {
    items: await Promise.all(rows.map((row) => toItem(deps.storage, kind, row))),
    pages: pageCount(total, input.limit),
    total,
  };
}

/** A form's link must be a file uploaded for the library (its url or its key). */
async function formKey(storage: Storage, link: string): Promise<string> {
  const key = keyFromLink(link);
  if (!isValidKey(key) || !key.startsWith('forms/') || !(await storage.exists(key))) {
    throw new AppError('BAD_REQUEST', apiMessages.fileNotUploaded, [
      { path: 'link', message: apiMessages.fileNotUploaded },
    ]);
  }
  return key;
}

async function storedLink(deps: Deps, kind: LibraryKind, link: string): Promise<string> {
  return kind === 'form' ? formKey(deps.storage, link) : link;
}

export async function createItem(deps: Deps, kind: LibraryKind, input: { name: string; link: string }) {
  const row = await deps.db.libraryItem.create({
    data: { kind, name: input.name, link: await storedLink(deps, kind, input.link) },
    select: itemSelect,
  });
  return toItem(deps.storage, kind, row);
}

async function existing(db: Db, kind: LibraryKind, id: string) {
  const row = await db.libraryItem.findFirst({ where: { id, kind }, select: itemSelect });
  if (!row) throw new AppError('NOT_FOUND', apiMessages.notFound);
  return row;
}

export async function updateItem(
  deps: Deps,
  kind: LibraryKind,
  input: { id: string; name: string; link: string },
) {
  await existing(deps.db, kind, input.id);
  const row = await deps.db.libraryItem.update({
    where: { id: input.id },
    data: { name: input.name, link: await storedLink(deps, kind, input.link) },
    select: itemSelect,
  });
  return toItem(deps.storage, kind, row);
}

/** The file of a deleted form stays in storage: a link someone saved keeps working for its hour. */
export async function deleteItem(deps: Deps, kind: LibraryKind, id: string) {
  await existing(deps.db, kind, id);
  await deps.db.libraryItem.delete({ where: { id } });
  return { message: kind === 'form' ? toasts.formDeleted : toasts.tutorialDeleted };
}
