import { DESK_AT_RISK_ITEMS, type DeskSummary } from '../../../shared/schemas/dashboard';
import { sqlRows } from '../../db/sql';
import { calendarDayOf } from '../calendar-days';
import type { CallerContext } from '../context';
import { officeOfLists } from '../reach';
import { reviewQueueSql } from '../transactions/review-queue';
import { atRiskCountSql, atRiskFigures } from './at-risk';

type QueueHead = { total: number; queued_at: Date | null };

/**
 * What waits for the desk, for an admin's /home: the queue's size and oldest wait, and the files
 * at risk, as the dashboard reports them (UTC days, the clock's now), with only the soonest few
 * files named. The landing page must say "57 documents wait" where it would otherwise say
 * "nothing needs your attention". The queue is read as its first page is (the kept per-file
 * counts and the oldest entry of each kind): the dashboard's statement, which also takes the
 * median wait, visits every entry (about 50 ms for 16,000), and /home asks on every live event.
 * An office admin's desk is its office's (services/reach.ts), a brokerage-wide admin's the whole.
 */
export async function deskSummaryOf(ctx: CallerContext): Promise<DeskSummary> {
  const now = ctx.deps.clock.now();
  const today = calendarDayOf(now);
  const office = officeOfLists(ctx.user);
  const [head, items, counted] = await Promise.all([
    sqlRows<QueueHead>(ctx.db, reviewQueueSql({ page: 1, limit: 1 }, office)),
    atRiskFigures(ctx, today, DESK_AT_RISK_ITEMS, office),
    sqlRows<{ total: number }>(ctx.db, atRiskCountSql(today, office)),
  ]);
  const oldest = head[0]?.queued_at ?? null;
  return {
    queue: {
      size: head[0]?.total ?? 0,
      // Whole seconds, rounded down, as the queue and the dashboard show each wait.
      oldestWaitingSeconds:
        oldest === null ? null : Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)),
    },
    atRisk: { total: counted[0]?.total ?? 0, items },
  };
}
