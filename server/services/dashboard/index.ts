import type { DashboardAnswer, DashboardInput } from '../../../shared/schemas/dashboard';
import type { CallerContext } from '../context';
import { officeOfLists } from '../reach';
import { atRiskFigures } from './at-risk';
import { officesOf, officeTurnarounds } from './by-office';
import { complianceFigures } from './compliance';
import { decisionFigures } from './decisions';
import { moneyFigures } from './money';
import { queueFigures } from './queue';
import { resolveRange } from './range';

export { attentionOf } from './attention';

/**
 * The broker dashboard's figures over a range (the definitions are in
 * shared/schemas/dashboard.ts). "Today" and "now" come from the clock, never the database, and
 * every figure is read from what the database keeps (migration 20261129090000), so a year of a
 * million transactions answers within the goals of docs/PERFORMANCE.md. Every figure is of what
 * the caller reaches (services/reach.ts): an office admin's office, a brokerage-wide admin's
 * whole brokerage or the office it filters to.
 */
export async function dashboardFigures(ctx: CallerContext, input: DashboardInput): Promise<DashboardAnswer> {
  const now = ctx.deps.clock.now();
  const range = resolveRange(now, input);
  const office = officeOfLists(ctx.user, input.officeId);
  const [queue, decisions, compliance, atRisk, turnaroundsByOffice, money] = await Promise.all([
    queueFigures(ctx, now, office),
    decisionFigures(ctx, range, office),
    complianceFigures(ctx, range, office),
    atRiskFigures(ctx, range.today, undefined, office),
    officeTurnarounds(ctx, range, office),
    moneyFigures(ctx, range, office),
  ]);
  const offices = officesOf(turnaroundsByOffice, queue);
  const { byOffice: _byOffice, ...queueAnswer } = queue;
  return {
    from: range.from,
    to: range.to,
    queue: queueAnswer,
    ...decisions,
    compliance,
    atRisk,
    money,
    offices,
  };
}
