import { keyDatesAnswer, keyDatesIdInput, replaceKeyDatesInput } from '../../shared/schemas/key-dates';
import * as keyDates from '../services/key-dates';
import { protectedProcedure, router } from '../trpc/init';
import examples from './key-dates.examples.json';

/** A transaction's key dates: its agent's and every admin's. */
export const keyDatesRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/:id/dates',
        summary:
          "A transaction's key dates (YYYY-MM-DD), earliest first, and the kinds its template suggests",
        tag: 'key dates',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .input(keyDatesIdInput)
    .output(keyDatesAnswer)
    .query(({ ctx, input }) => keyDates.listKeyDates(ctx, input)),

  replace: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/transactions/:id/dates',
        summary:
          "Replace a transaction's key dates (its agent or an admin; 409 when closed); reminders follow",
        tag: 'key dates',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.replace,
      },
    })
    .input(replaceKeyDatesInput)
    .output(keyDatesAnswer)
    .mutation(({ ctx, input }) => keyDates.replaceKeyDates(ctx, input)),
});
