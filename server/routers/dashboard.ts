import { attentionAnswer, dashboardAnswer, dashboardInput } from '../../shared/schemas/dashboard';
import * as dashboard from '../services/dashboard';
import { adminProcedure, protectedProcedure, router } from '../trpc/init';

/** The broker dashboard and the agent's 'Needs your attention' strip. */
export const dashboardRouter = router({
  figures: adminProcedure
    .input(dashboardInput)
    .output(dashboardAnswer)
    .query(({ ctx, input }) => dashboard.dashboardFigures(ctx, input)),

  attention: protectedProcedure.output(attentionAnswer).query(({ ctx }) => dashboard.attentionOf(ctx)),
});
