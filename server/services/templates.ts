import { apiMessages, toasts } from '../../shared/messages';
import type { Template, TemplateInput } from '../../shared/schemas/templates';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { recordAudit } from './audit';
import { escapeLike, pageCount } from './paging';

/** Checklist templates: one list of documents per (type, role); role '-' means none. */

const templateSelect = {
  id: true,
  type: true,
  role: true,
  documents: true,
} as const satisfies Prisma.TransactionTemplateSelect;
type TemplateRow = Prisma.TransactionTemplateGetPayload<{ select: typeof templateSelect }>;

export function toTemplate(row: TemplateRow): Template {
  return { _id: row.id, type: row.type, role: row.role, forms: row.documents };
}

const ORDER: Prisma.TransactionTemplateOrderByWithRelationInput[] = [
  { type: 'asc' },
  { role: 'asc' },
  { id: 'asc' },
];

export async function allTemplates(db: Db): Promise<Template[]> {
  return (await db.transactionTemplate.findMany({ select: templateSelect, orderBy: ORDER })).map(toTemplate);
}

export async function listTemplates(db: Db, { page, limit }: { page: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db.transactionTemplate.findMany({
      select: templateSelect,
      orderBy: ORDER,
      skip: (page - 1) * limit,
      take: limit,
    }),
    db.transactionTemplate.count(),
  ]);
  return { data: rows.map(toTemplate), totalPages: pageCount(total, limit), totalItems: total };
}

/** Case-insensitive substring on type, role and any document name. */
export async function searchTemplates(
  db: Db,
  { query, page, limit }: { query: string; page: number; limit: number },
) {
  const term = query.trim();
  if (!term) {
    const { data, totalPages, totalItems } = await listTemplates(db, { page, limit });
    return { forms: data, pages: totalPages, total: totalItems };
  }
  const pattern = `%${escapeLike(term)}%`;
  // Document names live in a text[]; unnest is simplest, and templates number in the dozens.
  const matches = await db.$queryRaw<Array<{ id: string }>>`
    SELECT t.id::text AS id FROM transaction_templates t
    WHERE t.type ILIKE ${pattern} OR t.role ILIKE ${pattern}
       OR EXISTS (SELECT 1 FROM unnest(t.documents) AS d(name) WHERE d.name ILIKE ${pattern})`;
  const ids = matches.map((m) => m.id);
  const rows = await db.transactionTemplate.findMany({
    where: { id: { in: ids } },
    select: templateSelect,
    orderBy: ORDER,
    skip: (page - 1) * limit,
    take: limit,
  });
  return { forms: rows.map(toTemplate), pages: pageCount(ids.length, limit), total: ids.length };
}

function conflict(input: TemplateInput) {
  return new AppError('CONFLICT', `A template for ${input.type} / ${input.role} already exists`);
}

export async function createTemplate(db: Db, actorId: string, input: TemplateInput): Promise<Template> {
  const taken = await db.transactionTemplate.findUnique({
    where: { type_role: { type: input.type, role: input.role } },
    select: { id: true },
  });
  if (taken) throw conflict(input);
  return db.$transaction(async (tx) => {
    const row = await tx.transactionTemplate.create({
      data: { type: input.type, role: input.role, documents: input.forms },
      select: templateSelect,
    });
    await recordAudit(tx, {
      actorId,
      action: 'template.create',
      entity: 'TransactionTemplate',
      entityId: row.id,
      after: toTemplate(row),
    });
    return toTemplate(row);
  });
}

export async function updateTemplate(
  db: Db,
  actorId: string,
  id: string,
  input: TemplateInput,
): Promise<Template> {
  const before = await db.transactionTemplate.findUnique({ where: { id }, select: templateSelect });
  if (!before) throw new AppError('NOT_FOUND', apiMessages.notFound);
  const clash = await db.transactionTemplate.findUnique({
    where: { type_role: { type: input.type, role: input.role } },
    select: { id: true },
  });
  if (clash && clash.id !== id) throw conflict(input);
  return db.$transaction(async (tx) => {
    const row = await tx.transactionTemplate.update({
      where: { id },
      data: { type: input.type, role: input.role, documents: input.forms },
      select: templateSelect,
    });
    await recordAudit(tx, {
      actorId,
      action: 'template.update',
      entity: 'TransactionTemplate',
      entityId: id,
      before: toTemplate(before),
      after: toTemplate(row),
    });
    return toTemplate(row);
  });
}

/** Existing transactions keep their checklists: they were copied at creation. */
export async function deleteTemplate(db: Db, actorId: string, id: string) {
  const before = await db.transactionTemplate.findUnique({ where: { id }, select: templateSelect });
  if (!before) throw new AppError('NOT_FOUND', apiMessages.notFound);
  await db.$transaction(async (tx) => {
    await tx.transactionTemplate.delete({ where: { id } });
    await recordAudit(tx, {
      actorId,
      action: 'template.delete',
      entity: 'TransactionTemplate',
      entityId: id,
      before: toTemplate(before),
    });
  });
  return { message: toasts.templateDeleted };
}
