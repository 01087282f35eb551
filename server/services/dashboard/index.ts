import type { DashboardAnswer, DashboardInput } from '../../../shared/schemas/dashboard';
import type { CallerContext } from '../context';
import { atRiskFigures } from './at-risk';
import { complianceFigures } from './compliance';
import { decisionFigures } from './decisions';
import { queueFigures } from './queue';
import { resolveRange } from './range';

export { attentionOf } from './attention';

/**
 * The broker dashboard's figures over a range (the definitions are in
 * shared/schemas/dashboard.ts). "Today" and "now" come from the clock, never the database, and
 * every figure is read from what the database keeps (migration 20261129090000), so a year of a
 * million transactions answers within the goals of docs/PERFORMANCE.md.
 */
export async function dashboardFigures(ctx: CallerContext, input: DashboardInput): Promise<DashboardAnswer> {
  const now = ctx.deps.clock.now();
  const range = resolveRange(now, input);
  const [queue, decisions, compliance, atRisk] = await Promise.all([
    queueFigures(ctx, now),
    decisionFigures(ctx, range),
    complianceFigures(ctx, range),
    atRiskFigures(ctx, range.today),
  ]);
  return { from: range.from, to: range.to, queue, ...decisions, compliance, atRisk };
}
