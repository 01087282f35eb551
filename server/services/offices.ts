import { apiMessages, officeMessages } from '../../shared/messages';
import type {
  CreateOfficeInput,
  Office,
  OfficesAnswer,
  UpdateOfficeInput,
} from '../../shared/schemas/offices';
import { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { actorOf, recordAudit } from './audit';
import type { CallerContext } from './context';
import { assertBrokerageWide, isOfficeAdmin, reachesOffice } from './reach';

/**
 * The brokerage's offices. Brokerage-wide admins make, change and remove them; an office admin
 * reads its own and nothing else (another office does not exist for it: 404).
 */

const officeSelect = {
  id: true,
  name: true,
  reviewTargetHours: true,
  retentionYears: true,
  createdAt: true,
} as const satisfies Prisma.OfficeSelect;
type OfficeRow = Prisma.OfficeGetPayload<{ select: typeof officeSelect }>;

export const toOffice = (row: OfficeRow): Office => ({
  _id: row.id,
  name: row.name,
  reviewTargetHours: row.reviewTargetHours,
  retentionYears: row.retentionYears,
  createdAt: row.createdAt.toISOString(),
});

const notFound = () => new AppError('NOT_FOUND', apiMessages.notFound);
const nameTaken = () => new AppError('CONFLICT', officeMessages.nameTaken);

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** Each office the caller reaches, by name, with its active agents counted. */
export async function listOffices(ctx: CallerContext): Promise<OfficesAnswer> {
  const rows = await ctx.db.office.findMany({
    where: isOfficeAdmin(ctx.user) ? { id: ctx.user.officeId ?? undefined } : {},
    select: {
      ...officeSelect,
      _count: { select: { users: { where: { role: 'user', isAdminApproved: true } } } },
    },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({ ...toOffice(row), agentCount: row._count.users }));
}

/** An office the caller reaches, or 404. */
async function findOffice(ctx: CallerContext, id: string): Promise<Office> {
  if (!reachesOffice(ctx.user, id)) throw notFound();
  const row = await ctx.db.office.findUnique({ where: { id }, select: officeSelect });
  if (!row) throw notFound();
  return toOffice(row);
}

export async function createOffice(ctx: CallerContext, input: CreateOfficeInput): Promise<Office> {
  assertBrokerageWide(ctx.user);
  try {
    return await ctx.db.$transaction(async (tx) => {
      const office = toOffice(
        await tx.office.create({
          data: {
            name: input.name,
            ...(input.reviewTargetHours !== undefined ? { reviewTargetHours: input.reviewTargetHours } : {}),
            ...(input.retentionYears !== undefined ? { retentionYears: input.retentionYears } : {}),
          },
          select: officeSelect,
        }),
      );
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'office.create',
        entity: 'Office',
        entityId: office._id,
        after: office,
      });
      return office;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function updateOffice(ctx: CallerContext, input: UpdateOfficeInput): Promise<Office> {
  const before = await findOffice(ctx, input.id);
  assertBrokerageWide(ctx.user);
  try {
    return await ctx.db.$transaction(async (tx) => {
      const after = toOffice(
        await tx.office.update({
          where: { id: input.id },
          data: {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.reviewTargetHours !== undefined ? { reviewTargetHours: input.reviewTargetHours } : {}),
            ...(input.retentionYears !== undefined ? { retentionYears: input.retentionYears } : {}),
          },
          select: officeSelect,
        }),
      );
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'office.update',
        entity: 'Office',
        entityId: input.id,
        before,
        after,
      });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/**
 * Removes an office nobody belongs to any more (deactivated users still do: they keep their
 * history there). The check and the delete share a lock on the office, so a user moved in
 * meanwhile makes it 409, never a dangling reference.
 */
export async function deleteOffice(ctx: CallerContext, input: { id: string }): Promise<{ message: string }> {
  const before = await findOffice(ctx, input.id);
  assertBrokerageWide(ctx.user);
  await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM offices WHERE id = ${input.id}::uuid FOR UPDATE`;
    if ((await tx.user.count({ where: { officeId: input.id } })) > 0) {
      throw new AppError('CONFLICT', officeMessages.stillHasUsers);
    }
    await tx.office.delete({ where: { id: input.id } });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'office.delete',
      entity: 'Office',
      entityId: input.id,
      before,
    });
  });
  return { message: officeMessages.deleted };
}
