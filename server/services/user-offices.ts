import { apiMessages, officeMessages } from '../../shared/messages';
import type { PublicUser, UpdateUserInput } from '../../shared/schemas/users';
import type { Tx } from '../db/client';
import { AppError } from '../errors';
import { actorOf, recordAudit } from './audit';
import { assertPlanExists } from './commission/plans';
import type { CallerContext } from './context';
import { publicUserSelect, toPublicUser } from './public-user';
import { isOfficeAdmin, reachedUsersWhere, reachesUser } from './reach';

/**
 * Where a user works: its office and the agents it coordinates for, as admins set them on
 * creation (services/users.ts createUser) and later (updateUser). The rules of who may set what
 * are here; what each caller then reaches is services/reach.ts.
 */

export type OfficeAssignment = {
  officeId?: string | null | undefined;
  coordinatesFor?: string[] | undefined;
};

const badRequest = (message: string) => new AppError('BAD_REQUEST', message);

/**
 * Refuses an assignment the caller may not make or that names what cannot be: an office admin
 * keeps users in its own office (and so makes no brokerage-wide admin); an office must exist; only
 * agents coordinate, and only for active agents the caller reaches, never for themselves.
 */
export async function assertAssignable(
  ctx: CallerContext,
  target: { id?: string; role: 'user' | 'admin' },
  assignment: OfficeAssignment,
): Promise<void> {
  const { officeId, coordinatesFor } = assignment;
  if (officeId !== undefined) {
    if (isOfficeAdmin(ctx.user) && officeId !== ctx.user.officeId) {
      throw new AppError('FORBIDDEN', officeMessages.officeAdminStaysInOffice);
    }
    if (
      officeId !== null &&
      !(await ctx.db.office.findUnique({ where: { id: officeId }, select: { id: true } }))
    ) {
      throw badRequest(officeMessages.notFound);
    }
  }
  if (coordinatesFor === undefined || coordinatesFor.length === 0) return;
  if (target.role !== 'user') throw badRequest(officeMessages.onlyAgentsCoordinate);
  const agents = [...new Set(coordinatesFor)];
  if (target.id !== undefined && agents.includes(target.id)) {
    throw badRequest(officeMessages.onlyActiveAgentsCoordinated);
  }
  const active = await ctx.db.user.count({
    where: { id: { in: agents }, role: 'user', isAdminApproved: true, ...reachedUsersWhere(ctx.user) },
  });
  if (active !== agents.length) throw badRequest(officeMessages.onlyActiveAgentsCoordinated);
}

/** Replaces the agents a user coordinates for (inside the change's database transaction). */
export async function writeCoordinations(
  tx: Tx,
  coordinatorId: string,
  agentIds: readonly string[],
): Promise<void> {
  await tx.coordination.deleteMany({ where: { coordinatorId } });
  if (agentIds.length === 0) return;
  await tx.coordination.createMany({
    data: [...new Set(agentIds)].map((agentId) => ({ coordinatorId, agentId })),
  });
}

/**
 * An admin moves a user to an office (or out of every office), sets the agents it coordinates
 * for, and its commission plan (any existing plan; an unknown one is a 400 naming
 * commissionPlanId). A user of another office is not found. The user's transactions follow its office (the
 * database moves them), and its next call already sees what the new office reaches.
 */
export async function updateUser(ctx: CallerContext, input: UpdateUserInput): Promise<PublicUser> {
  const row = await ctx.db.user.findUnique({ where: { id: input.id }, select: publicUserSelect });
  if (!row || !reachesUser(ctx.user, row)) throw new AppError('NOT_FOUND', apiMessages.notFound);
  await assertAssignable(ctx, { id: row.id, role: row.role }, input);
  const before = toPublicUser(row);
  return ctx.db.$transaction(async (tx) => {
    // Read in the change's transaction; the foreign key refuses a plan deleted meanwhile.
    await assertPlanExists(tx, input.commissionPlanId);
    if (input.officeId !== undefined || input.commissionPlanId !== undefined) {
      await tx.user.update({
        where: { id: input.id },
        data: {
          ...(input.officeId !== undefined ? { officeId: input.officeId } : {}),
          ...(input.commissionPlanId !== undefined ? { commissionPlanId: input.commissionPlanId } : {}),
        },
      });
    }
    if (input.coordinatesFor !== undefined) await writeCoordinations(tx, input.id, input.coordinatesFor);
    const after = toPublicUser(
      await tx.user.findUniqueOrThrow({ where: { id: input.id }, select: publicUserSelect }),
    );
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'user.update',
      entity: 'User',
      entityId: input.id,
      before,
      after,
    });
    return after;
  });
}
