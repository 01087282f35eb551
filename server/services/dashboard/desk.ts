import { DESK_AT_RISK_ITEMS, type DeskSummary } from '../../../shared/schemas/dashboard';
import { sqlRows } from '../../db/sql';
import { calendarDayOf } from '../calendar-days';
import type { ServiceContext } from '../context';
import { atRiskCountSql, atRiskFigures } from './at-risk';
import { queueFigures } from './queue';

/**
 * What waits for the desk, for an admin's /home: the same queue and files at risk the dashboard
 * reports (UTC days, the clock's now), read from the same indexes, with only the soonest few
 * files named. The landing page must say "57 documents wait" where it would otherwise say
 * "nothing needs your attention".
 */
export async function deskSummaryOf(ctx: ServiceContext): Promise<DeskSummary> {
  const now = ctx.deps.clock.now();
  const today = calendarDayOf(now);
  const [queue, items, counted] = await Promise.all([
    queueFigures(ctx, now),
    atRiskFigures(ctx, today, DESK_AT_RISK_ITEMS),
    sqlRows<{ total: number }>(ctx.db, atRiskCountSql(today)),
  ]);
  return {
    queue: { size: queue.size, oldestWaitingSeconds: queue.oldestWaitingSeconds },
    atRisk: { total: counted[0]?.total ?? 0, items },
  };
}
