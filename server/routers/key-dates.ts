import { keyDatesAnswer, keyDatesIdInput, replaceKeyDatesInput } from '../../shared/schemas/key-dates';
import * as keyDates from '../services/key-dates';
import { protectedProcedure, router } from '../trpc/init';

/** A transaction's key dates: its agent's and every admin's. */
export const keyDatesRouter = router({
  list: protectedProcedure
    .input(keyDatesIdInput)
    .output(keyDatesAnswer)
    .query(({ ctx, input }) => keyDates.listKeyDates(ctx, input)),

  replace: protectedProcedure
    .input(replaceKeyDatesInput)
    .output(keyDatesAnswer)
    .mutation(({ ctx, input }) => keyDates.replaceKeyDates(ctx, input)),
});
