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

/** Notification preferences and the mails' one-click unsubscribe. */
export const notificationSettingsRouter = router({
  get: protectedProcedure
    .input(userIdInput)
    .output(notificationSettings)
    .query(({ ctx, input }) => settings.getNotificationSettings(ctx, input)),

  update: protectedProcedure
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
