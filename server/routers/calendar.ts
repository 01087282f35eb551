import { keyDateMessages } from '../../shared/messages';
import {
  calendarAnswer,
  calendarFeedAnswer,
  calendarInput,
  MAX_CALENDAR_DAYS,
} from '../../shared/schemas/key-dates';
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
        description: `\`from\` and \`to\` are days (YYYY-MM-DD); \`to\` may be at most ${MAX_CALENDAR_DAYS} days after \`from\`.`,
        errors: [403, 404],
        errorNotes: {
          400: `Invalid input: a day that is not YYYY-MM-DD, \`to\` before \`from\`, or \`to\` more than ${MAX_CALENDAR_DAYS} days after \`from\` ("${keyDateMessages.rangeTooLong(MAX_CALENDAR_DAYS)}")`,
        },
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
