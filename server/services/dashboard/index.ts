import type { AttentionAnswer, DashboardAnswer, DashboardInput } from '../../../shared/schemas/dashboard';
import type { CallerContext } from '../context';

/** The broker dashboard's figures over a range (DESIGN.md 12.4). */
export async function dashboardFigures(
  _ctx: CallerContext,
  _input: DashboardInput,
): Promise<DashboardAnswer> {
  throw new Error('dashboardFigures: not built yet');
}

/** What the signed-in agent should do next, on their open transactions. */
export async function attentionOf(_ctx: CallerContext): Promise<AttentionAnswer> {
  throw new Error('attentionOf: not built yet');
}
