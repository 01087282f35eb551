import type { AppDeps } from '../deps';
import { issueCda } from '../services/commission/cda-issue';
import type { ServiceLog } from '../services/context';
import { DEMO_AGENTS } from './demo';

/**
 * The demo's commissions, made after its transactions once the app's dependencies exist: a
 * capped plan for every demo agent, a commission of 3% of the sale price on every settled file
 * (closed, or compliant and open), and a CDA issued by the owner, through the service, on the
 * first closed one, so the commission screens have something to show.
 */

const DEMO_PLAN = {
  name: 'Demo 70/30, capped',
  agentSplit: 70,
  capCents: 1_800_000n,
  transactionFeeCents: 39_500n,
};
const RATE_THOUSANDTHS = 3_000;

export async function seedDemoCdas(deps: AppDeps, log: ServiceLog): Promise<void> {
  const { db } = deps;
  const owner = await db.user.findFirst({ where: { isOwner: true }, select: { id: true } });
  if (!owner) return;
  const plan = await db.commissionPlan.upsert({
    where: { name: DEMO_PLAN.name },
    create: DEMO_PLAN,
    update: {},
    select: { id: true },
  });
  const agents = await db.user.findMany({
    where: { email: { in: DEMO_AGENTS.map((agent) => agent.email) } },
    select: { id: true },
  });
  const agentIds = agents.map((agent) => agent.id);
  await db.user.updateMany({ where: { id: { in: agentIds } }, data: { commissionPlanId: plan.id } });
  const settled = await db.transaction.findMany({
    where: {
      userId: { in: agentIds },
      complianceState: { in: ['compliant', 'closed'] },
      salePriceCents: { not: null },
    },
    select: { id: true, closedAt: true },
    orderBy: { createdAt: 'asc' },
  });
  if (settled.length === 0) return;
  await db.transaction.updateMany({
    where: { id: { in: settled.map((deal) => deal.id) } },
    data: { commissionRateThousandths: RATE_THOUSANDTHS },
  });
  const first = settled.find((deal) => deal.closedAt !== null) ?? settled[0];
  if (!first) return;
  const ctx = {
    deps,
    db,
    ip: '127.0.0.1',
    requestId: 'demo',
    log,
    user: { id: owner.id, role: 'admin' as const, isOwner: true, officeId: null },
  };
  await issueCda(ctx, { id: first.id });
  log.info({}, `Demo data: a commission on ${settled.length} settled files and a CDA on one`);
}
