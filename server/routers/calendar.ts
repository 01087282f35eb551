import { calendarAnswer, calendarFeedAnswer, calendarInput } from '../../shared/schemas/key-dates';
import * as calendar from '../services/calendar';
import { protectedProcedure, router } from '../trpc/init';

/** The calendar of key dates and its subscribable feed. */
export const calendarRouter = router({
  list: protectedProcedure
    .input(calendarInput)
    .output(calendarAnswer)
    .query(({ ctx, input }) => calendar.listCalendar(ctx, input)),

  createFeed: protectedProcedure
    .output(calendarFeedAnswer)
    .mutation(({ ctx }) => calendar.createCalendarFeed(ctx)),
});
