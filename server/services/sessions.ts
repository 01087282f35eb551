import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import type { ServiceContext, SessionToConfirm } from './context';

/**
 * What every authenticated call reads about its user (loaded fresh on every
 * call, never cached, so a deactivation, a demotion or a password change applies at once).
 *
 * It runs on every request but one, so it is one primary-key lookup in hand-written SQL: through
 * Prisma it cost more CPU than the rest of a typical call (docs/PERFORMANCE.md).
 */
export type SessionUser = {
  id: string;
  role: 'user' | 'admin';
  isOwner: boolean;
  isAdminApproved: boolean;
  tokenVersion: number;
  officeId: string | null;
  coordinatesFor: string[];
  /** An admin while the owner requires admins to sign in with a second factor (sign_in_policy). */
  secondFactorRequired: boolean;
};

type SessionRow = {
  id: string;
  role: 'user' | 'admin';
  is_owner: boolean;
  is_admin_approved: boolean;
  token_version: number;
  office_id: string | null;
  /** The active agents it coordinates for: a deactivated agent's files go back to the admins. */
  coordinates_for: string[];
  second_factor_required: boolean;
};

/** The user behind an access token's `sub` (a uuid, checked when the token was), or null. */
export async function sessionUser(ctx: ServiceContext, { id }: { id: string }): Promise<SessionUser | null> {
  const [row] = await sqlRows<SessionRow>(
    ctx.db,
    Prisma.sql`SELECT id, role::text AS role, is_owner, is_admin_approved, token_version, office_id,
                      ARRAY(SELECT c.agent_id::text FROM coordinations c JOIN users a ON a.id = c.agent_id
                             WHERE c.coordinator_id = users.id AND a.is_admin_approved
                             ORDER BY c.agent_id) AS coordinates_for,
                      role = 'admin' AND EXISTS (SELECT 1 FROM sign_in_policy p
                                                  WHERE p.require_two_factor_for_admins) AS second_factor_required
                 FROM users WHERE id = ${id}::uuid`,
    { prepared: true },
  );
  if (!row) return null;
  return {
    id: row.id,
    role: row.role,
    isOwner: row.is_owner,
    isAdminApproved: row.is_admin_approved,
    tokenVersion: row.token_version,
    officeId: row.office_id,
    coordinatesFor: row.coordinates_for,
    secondFactorRequired: row.second_factor_required,
  };
}

/**
 * True exactly when sessionUser would accept the token and give the claimed role and office: the
 * user exists, is approved, has the token's version, role and office, and coordinates for no
 * one; an admin, while the owner requires a second factor of admins, only when its session
 * proved one (the full check refuses the others). The owner and coordinators are left to the
 * full check (the claims say neither who the owner is nor whom a user coordinates for).
 */
export const confirmedSessionSql = (session: SessionToConfirm): Prisma.Sql => Prisma.sql`
  EXISTS (SELECT 1 FROM users WHERE id = ${session.id}::uuid AND role = ${session.role}::role
             AND token_version = ${session.tokenVersion}::int AND is_admin_approved AND NOT is_owner
             AND office_id IS NOT DISTINCT FROM ${session.officeId}::uuid
             AND NOT EXISTS (SELECT 1 FROM coordinations c WHERE c.coordinator_id = users.id)
             ${policyHoldsBack(session) ? SECOND_FACTOR_POLICY_OFF : Prisma.empty})`;

/**
 * An admin's session that proved no second factor is confirmed only while the owner's policy is
 * off; any other session's statement is the same as without a policy, so it costs them nothing.
 */
const policyHoldsBack = (session: SessionToConfirm) =>
  session.role === 'admin' && !session.secondFactorProved;
const SECOND_FACTOR_POLICY_OFF = Prisma.sql`
             AND NOT EXISTS (SELECT 1 FROM sign_in_policy p WHERE p.require_two_factor_for_admins)`;
