import { adminSecurityRouter } from '../routers/admin-security';
import { adminTransactionsRouter } from '../routers/admin-transactions';
import { apiKeysRouter } from '../routers/api-keys';
import { archivesRouter } from '../routers/archives';
import { auditRouter } from '../routers/audit';
import { authRouter } from '../routers/auth';
import { bannersRouter } from '../routers/banners';
import { calendarRouter } from '../routers/calendar';
import { commissionRouter } from '../routers/commission';
import { dashboardRouter } from '../routers/dashboard';
import { exportsRouter } from '../routers/exports';
import { keyDatesRouter } from '../routers/key-dates';
import { librariesRouter } from '../routers/libraries';
import { notificationSettingsRouter } from '../routers/notification-settings';
import { notificationsRouter } from '../routers/notifications';
import { officesRouter } from '../routers/offices';
import { oidcRouter } from '../routers/oidc';
import { passkeysRouter } from '../routers/passkeys';
import { rejectionReasonsRouter } from '../routers/rejection-reasons';
import { reviewQueueRouter } from '../routers/review-queue';
import { settingsRouter } from '../routers/settings';
import { signaturesRouter } from '../routers/signatures';
import { templatesRouter } from '../routers/templates';
import { transactionsRouter } from '../routers/transactions';
import { twoFactorRouter } from '../routers/two-factor';
import { uploadsRouter } from '../routers/uploads';
import { usersRouter } from '../routers/users';
import { webhooksRouter } from '../routers/webhooks';
import { createCallerFactory, router } from './init';

/**
 * The application's router: one sub-router per file under server/routers. A procedure added to
 * one of them is served on every transport with nothing else to register (its REST path, if any,
 * is in its own meta).
 */
export const appRouter = router({
  auth: authRouter,
  settings: settingsRouter,
  users: usersRouter,
  offices: officesRouter,
  templates: templatesRouter,
  transactions: transactionsRouter,
  adminTransactions: adminTransactionsRouter,
  reviewQueue: reviewQueueRouter,
  dashboard: dashboardRouter,
  rejectionReasons: rejectionReasonsRouter,
  commission: commissionRouter,
  signatures: signaturesRouter,
  apiKeys: apiKeysRouter,
  uploads: uploadsRouter,
  notifications: notificationsRouter,
  libraries: librariesRouter,
  archives: archivesRouter,
  banners: bannersRouter,
  notificationSettings: notificationSettingsRouter,
  keyDates: keyDatesRouter,
  calendar: calendarRouter,
  webhooks: webhooksRouter,
  exports: exportsRouter,
  audit: auditRouter,
  passkeys: passkeysRouter,
  oidc: oidcRouter,
  twoFactor: twoFactorRouter,
  adminSecurity: adminSecurityRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
