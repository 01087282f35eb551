import { calendarAnswer, calendarFeedAnswer, calendarInput } from '../../shared/schemas/key-dates';
import * as calendar from '../services/calendar';
import { protectedProcedure, router } from '../trpc/init';
import examples from './calendar.examples.json';

/** The calendar of key dates and its subscribable feed. */
export const calendarRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/calendar',
        summary:
          "Key dates from `from` to `to` (inclusive): an agent's own, an admin's all it reaches (officeId: one office) or one agent's (agentId)",
        tag: 'key dates',
        scope: 'transactions:read',
        errors: [403, 404],
        examples: examples.list,
      },
    })
    .input(calendarInput)
    .output(calendarAnswer)
    .query(({ ctx, input }) => calendar.listCalendar(ctx, input)),

  createFeed: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/calendar/feed',
        summary:
          'A new secret iCalendar address (/calendar/<token>.ics) for calendar apps; the previous one stops',
        tag: 'key dates',
        scope: 'personal',
        examples: examples.createFeed,
      },
    })
    .output(calendarFeedAnswer)
    .mutation(({ ctx }) => calendar.createCalendarFeed(ctx)),
});
