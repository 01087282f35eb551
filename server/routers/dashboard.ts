import { keyDateMessages } from '../../shared/messages';
import {
  attentionAnswer,
  dashboardAnswer,
  dashboardInput,
  MAX_DASHBOARD_DAYS,
} from '../../shared/schemas/dashboard';
import * as dashboard from '../services/dashboard';
import { adminProcedure, protectedProcedure, router } from '../trpc/init';
import examples from './dashboard.examples.json';

/** The broker dashboard and the agent's 'Needs your attention' strip. */
export const dashboardRouter = router({
  figures: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/dashboard',
        summary:
          'The broker dashboard from `from` to `to` (UTC days, inclusive; default the last 30) of what the admin reaches (`officeId`: one office): the queue, turnaround, rejections, compliance at close, files at risk, and per office its queue, overdue items and median turnaround',
        tag: 'dashboard',
        scope: 'transactions:read',
        description: `\`from\` and \`to\` are UTC days (YYYY-MM-DD) spanning at most ${MAX_DASHBOARD_DAYS} days, both included.`,
        errorNotes: {
          400: `Invalid input: a day that is not YYYY-MM-DD, \`to\` before \`from\`, or a range of more than ${MAX_DASHBOARD_DAYS} days ("${keyDateMessages.rangeTooLong(MAX_DASHBOARD_DAYS)}")`,
        },
        examples: examples.figures,
      },
    })
    .input(dashboardInput)
    .output(dashboardAnswer)
    .query(({ ctx, input }) => dashboard.dashboardFigures(ctx, input)),

  attention: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/attention',
        summary:
          "What needs the signed-in user's attention on their open transactions: rejected and missing required items, key dates due within 7 days or overdue; for an admin also `desk`, the review queue's size and oldest wait and the files at risk (null for agents)",
        tag: 'dashboard',
        scope: 'personal',
        examples: examples.attention,
      },
    })
    .output(attentionAnswer)
    .query(({ ctx }) => dashboard.attentionOf(ctx)),
});
