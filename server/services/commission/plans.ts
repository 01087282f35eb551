import { commissionMessages } from '../../../shared/commission-messages';
import { apiMessages } from '../../../shared/messages';
import type {
  CommissionPlan,
  CommissionPlanInput,
  UpdateCommissionPlanInput,
} from '../../../shared/schemas/commission';
import type { Db, Tx } from '../../db/client';
import { Prisma } from '../../db/generated/client';
import { AppError } from '../../errors';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { assertBrokerageWide } from '../reach';

/**
 * Commission plans: how an agent's commissions split with the brokerage. Every admin reads them
 * (an office admin assigns them to its users); only brokerage-wide admins make and change them,
 * as they are the brokerage's own terms. Names are unique in any case (a citext column).
 */

export const planSelect = {
  id: true,
  name: true,
  agentSplit: true,
  capCents: true,
  transactionFeeCents: true,
  createdAt: true,
} as const satisfies Prisma.CommissionPlanSelect;
type PlanRow = Prisma.CommissionPlanGetPayload<{ select: typeof planSelect }>;

/** bigint columns as numbers: every amount the schema takes is below 2^53. */
export const toPlan = (row: PlanRow): CommissionPlan => ({
  _id: row.id,
  name: row.name,
  agentSplit: row.agentSplit,
  capCents: row.capCents === null ? null : Number(row.capCents),
  transactionFeeCents: Number(row.transactionFeeCents),
  createdAt: row.createdAt.toISOString(),
});

const nameTaken = () => new AppError('CONFLICT', commissionMessages.nameTaken);
const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

const planData = (input: CommissionPlanInput) => ({
  name: input.name,
  agentSplit: input.agentSplit,
  capCents: input.capCents === null ? null : BigInt(input.capCents),
  transactionFeeCents: BigInt(input.transactionFeeCents),
});

export async function listPlans(ctx: CallerContext): Promise<CommissionPlan[]> {
  const rows = await ctx.db.commissionPlan.findMany({
    select: planSelect,
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toPlan);
}

/** Runs a plan's write, a taken name answering 409 (the unique index decides, races included). */
async function writing(work: () => Promise<CommissionPlan>): Promise<CommissionPlan> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function createPlan(ctx: CallerContext, input: CommissionPlanInput): Promise<CommissionPlan> {
  assertBrokerageWide(ctx.user);
  return writing(() =>
    ctx.db.$transaction(async (tx) => {
      const plan = toPlan(await tx.commissionPlan.create({ data: planData(input), select: planSelect }));
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'commissionPlan.create',
        entity: 'CommissionPlan',
        entityId: plan._id,
        after: plan,
      });
      return plan;
    }),
  );
}

export async function updatePlan(
  ctx: CallerContext,
  { id, ...input }: UpdateCommissionPlanInput,
): Promise<CommissionPlan> {
  assertBrokerageWide(ctx.user);
  return writing(() =>
    ctx.db.$transaction(async (tx) => {
      const before = await tx.commissionPlan.findUnique({ where: { id }, select: planSelect });
      if (!before) throw new AppError('NOT_FOUND', apiMessages.notFound);
      const after = toPlan(
        await tx.commissionPlan.update({ where: { id }, data: planData(input), select: planSelect }),
      );
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'commissionPlan.update',
        entity: 'CommissionPlan',
        entityId: id,
        before: toPlan(before),
        after,
      });
      return after;
    }),
  );
}

/** A plan id a user is given must name a plan: 400 naming commissionPlanId otherwise. */
export async function assertPlanExists(db: Db | Tx, id: string | null | undefined): Promise<void> {
  if (id === undefined || id === null) return;
  if (await db.commissionPlan.findUnique({ where: { id }, select: { id: true } })) return;
  const message = commissionMessages.unknownPlan;
  throw new AppError('BAD_REQUEST', message, [{ path: 'commissionPlanId', message }]);
}
