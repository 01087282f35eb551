import { apiMessages, toasts } from '../../shared/messages';
import type { PagingInput } from '../../shared/schemas/common';
import {
  normalizeTypeName,
  type Template,
  type TemplateInput,
  type TemplateUpdateInput,
} from '../../shared/schemas/templates';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { recordAudit } from './audit';
import type { CallerContext } from './context';
import { escapeLike, pageCount } from './paging';
import { assertBrokerageWide } from './reach';
import { enqueueTemplateRules } from './template-rules';
import { rulesOf } from './transactions/checklist';

/** Checklist templates: one list of documents per (type, role); role '-' means none. */

const templateSelect = {
  id: true,
  type: true,
  role: true,
  documents: true,
  optionalDocuments: true,
  keyDateKinds: true,
  conditionalDocuments: true,
} as const satisfies Prisma.TransactionTemplateSelect;
type TemplateRow = Prisma.TransactionTemplateGetPayload<{ select: typeof templateSelect }>;

export function toTemplate(row: TemplateRow): Template {
  return {
    _id: row.id,
    type: row.type,
    role: row.role,
    forms: row.documents,
    optionalForms: row.optionalDocuments,
    keyDateKinds: row.keyDateKinds,
    conditionalForms: rulesOf(row.conditionalDocuments),
  };
}

const ORDER: Prisma.TransactionTemplateOrderByWithRelationInput[] = [
  { type: 'asc' },
  { role: 'asc' },
  { id: 'asc' },
];

export async function allTemplates(ctx: CallerContext): Promise<Template[]> {
  return (await ctx.db.transactionTemplate.findMany({ select: templateSelect, orderBy: ORDER })).map(
    toTemplate,
  );
}

export async function listTemplates(ctx: CallerContext, { page, limit }: PagingInput) {
  const [rows, total] = await Promise.all([
    ctx.db.transactionTemplate.findMany({
      select: templateSelect,
      orderBy: ORDER,
      skip: (page - 1) * limit,
      take: limit,
    }),
    ctx.db.transactionTemplate.count(),
  ]);
  return { data: rows.map(toTemplate), totalPages: pageCount(total, limit), totalItems: total };
}

/** Case-insensitive substring on type, role and any document name. */
export async function searchTemplates(
  ctx: CallerContext,
  { query, page, limit }: PagingInput & { query: string },
) {
  const { db } = ctx;
  const term = query.trim();
  if (!term) {
    const { data, totalPages, totalItems } = await listTemplates(ctx, { page, limit });
    return { forms: data, pages: totalPages, total: totalItems };
  }
  const pattern = `%${escapeLike(term)}%`;
  // Document names live in a text[]; unnest is simplest, and templates number in the dozens.
  const matches = await db.$queryRaw<Array<{ id: string }>>`
    SELECT t.id::text AS id FROM transaction_templates t
    WHERE t.type ILIKE ${pattern} OR t.role ILIKE ${pattern}
       OR EXISTS (SELECT 1 FROM unnest(t.documents || t.optional_documents) AS d(name)
                   WHERE d.name ILIKE ${pattern})
       OR EXISTS (SELECT 1 FROM jsonb_array_elements(t.conditional_documents) AS c(rule)
                   WHERE c.rule->>'label' ILIKE ${pattern})`;
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

/**
 * The type as it will be stored: each type is a menu entry for every agent, so a
 * variant of an existing type in case or spacing only ('listing', ' Listing ') is that type, in
 * its existing spelling, rather than a second entry. The template being updated does not count:
 * the only template of a type may change its case.
 */
async function canonicalType(ctx: CallerContext, type: string, exceptId?: string): Promise<string> {
  const name = normalizeTypeName(type);
  // lower() = lower() rather than Prisma's insensitive equals, which is an ILIKE: there a type
  // ending in a backslash is a broken pattern (a 500), and '%' or '_' would match other types.
  // Should older data hold two spellings already, the oldest one wins, every time.
  const [existing] = await ctx.db.$queryRaw<{ type: string }[]>`
    SELECT type FROM transaction_templates
    WHERE lower(type) = lower(${name}) AND id IS DISTINCT FROM ${exceptId ?? null}::uuid
    ORDER BY created_at, id
    LIMIT 1`;
  return existing?.type ?? name;
}

export async function createTemplate(ctx: CallerContext, given: TemplateInput): Promise<Template> {
  assertBrokerageWide(ctx.user);
  const { db } = ctx;
  const actorId = ctx.user.id;
  const input = { ...given, type: await canonicalType(ctx, given.type) };
  const taken = await db.transactionTemplate.findUnique({
    where: { type_role: { type: input.type, role: input.role } },
    select: { id: true },
  });
  if (taken) throw conflict(input);
  return db.$transaction(async (tx) => {
    const row = await tx.transactionTemplate.create({
      data: {
        type: input.type,
        role: input.role,
        documents: input.forms,
        optionalDocuments: input.optionalForms,
        keyDateKinds: input.keyDateKinds,
        conditionalDocuments: input.conditionalForms,
      },
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
  ctx: CallerContext,
  { id, ...given }: TemplateUpdateInput,
): Promise<Template> {
  assertBrokerageWide(ctx.user);
  const { db } = ctx;
  const actorId = ctx.user.id;
  const before = await db.transactionTemplate.findUnique({ where: { id }, select: templateSelect });
  if (!before) throw new AppError('NOT_FOUND', apiMessages.notFound);
  // Left out, the optional documents stay as they are, less any that just became required.
  const required = new Set(given.forms.map((name) => name.toLowerCase()));
  const optionalForms =
    given.optionalForms ?? before.optionalDocuments.filter((name) => !required.has(name.toLowerCase()));
  // Left out, the key date kinds stay as they are too.
  const keyDateKinds = given.keyDateKinds ?? before.keyDateKinds;
  // And the conditional ones.
  const conditionalForms = given.conditionalForms ?? rulesOf(before.conditionalDocuments);
  const input = {
    ...given,
    optionalForms,
    keyDateKinds,
    conditionalForms,
    type: await canonicalType(ctx, given.type, id),
  };
  const clash = await db.transactionTemplate.findUnique({
    where: { type_role: { type: input.type, role: input.role } },
    select: { id: true },
  });
  if (clash && clash.id !== id) throw conflict(input);
  return db.$transaction(async (tx) => {
    const row = await tx.transactionTemplate.update({
      where: { id },
      data: {
        type: input.type,
        role: input.role,
        documents: input.forms,
        optionalDocuments: input.optionalForms,
        keyDateKinds: input.keyDateKinds,
        conditionalDocuments: input.conditionalForms,
      },
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
    // Open transactions of this template take its new rules, in batches, after this commits.
    if (JSON.stringify(before.conditionalDocuments) !== JSON.stringify(row.conditionalDocuments))
      await enqueueTemplateRules(tx, { templateId: id, actorId });
    return toTemplate(row);
  });
}

/** Existing transactions keep their checklists and rules: they were copied at creation. */
export async function deleteTemplate(ctx: CallerContext, { id }: { id: string }) {
  assertBrokerageWide(ctx.user);
  const { db } = ctx;
  const actorId = ctx.user.id;
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
