import {
  detectedTimezoneInput,
  notificationSettings,
  notificationSettingsInput,
  unsubscribeAnswer,
  unsubscribeInput,
} from '../../shared/schemas/notification-settings';
import { userIdInput } from '../../shared/schemas/users';
import * as settings from '../services/notification-settings';
import { protectedProcedure, publicProcedure, router } from '../trpc/init';
import examples from './notification-settings.examples.json';

/** Notification preferences and the mails' one-click unsubscribe. */
export const notificationSettingsRouter = router({
  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/settings/notifications/:userId',
        summary: 'Notification preferences: per event in-app, email or digest; reminder days; timezone',
        tag: 'settings',
        scope: 'personal',
        examples: examples.get,
      },
    })
    .input(userIdInput)
    .output(notificationSettings)
    .query(({ ctx, input }) => settings.getNotificationSettings(ctx, input)),

  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/settings/notifications/:userId',
        summary: 'Change notification preferences (events left out keep their choice)',
        tag: 'settings',
        scope: 'personal',
        examples: examples.update,
      },
    })
    .input(notificationSettingsInput)
    .output(notificationSettings)
    .mutation(({ ctx, input }) => settings.updateNotificationSettings(ctx, input)),

  detectTimezone: protectedProcedure
    .input(detectedTimezoneInput)
    .output(notificationSettings)
    .mutation(({ ctx, input }) => settings.detectTimezone(ctx, input)),

  unsubscribe: publicProcedure
    .input(unsubscribeInput)
    .output(unsubscribeAnswer)
    .mutation(({ ctx, input }) => settings.unsubscribe(ctx, input)),
});
