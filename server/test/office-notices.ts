import type { Db } from '../db/client';
import type { Caller } from '../services/context';
import { createAdmin, createTransaction, createUser } from './factories';

/**
 * Two offices, North and South, each with an agent and a transaction of that agent, for the
 * tests of who among the admins hears of what. Offices and users' offices are written with
 * Prisma directly; transactions.office_id follows the agent's office by trigger.
 */
export async function twoOffices(db: Db, tag: string) {
  const north = await db.office.create({ data: { name: `North ${tag}` } });
  const south = await db.office.create({ data: { name: `South ${tag}` } });
  const agentOf = async (officeId: string) => {
    const agent = await createUser(db, { office: { connect: { id: officeId } } });
    const transaction = await createTransaction(db, { userId: agent.id });
    return { agent, transaction };
  };
  return { north, south, northDeal: await agentOf(north.id), southDeal: await agentOf(south.id) };
}

/** A new active admin (its admin term begins now), of `officeId` when given. */
export function adminOf(db: Db, officeId: string | null, fields: Parameters<typeof createAdmin>[1] = {}) {
  return createAdmin(db, { ...fields, ...(officeId ? { office: { connect: { id: officeId } } } : {}) });
}

/** The caller a session of `userId` would make now: its role, ownership and current office. */
export async function callerOf(db: Db, userId: string): Promise<Caller> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  return { id: user.id, role: user.role, isOwner: user.isOwner, officeId: user.officeId };
}

/** Moves a user to another office, as an admin's PUT /api/users/{id} would. */
export function moveTo(db: Db, userId: string, officeId: string | null) {
  return db.user.update({ where: { id: userId }, data: { officeId } });
}
