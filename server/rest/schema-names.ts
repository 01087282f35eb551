import { z } from 'zod';
import { sessionAnswer } from '../../shared/schemas/auth';
import { apiError, messageAnswer } from '../../shared/schemas/common';
import { rejectionReason, reviewQueueItem } from '../../shared/schemas/compliance';
import { calendarEvent, keyDate } from '../../shared/schemas/key-dates';
import { libraryItem } from '../../shared/schemas/libraries';
import { notificationSettings } from '../../shared/schemas/notification-settings';
import { notification } from '../../shared/schemas/notifications';
import { template } from '../../shared/schemas/templates';
import {
  comment,
  formVersion,
  historyEntry,
  person,
  progress,
  transaction,
  transactionForm,
  transactionSummary,
  uploadAnswer,
  waiver,
} from '../../shared/schemas/transactions';
import { publicUser } from '../../shared/schemas/users';
import { ERROR_SCHEMA } from './openapi';

/**
 * The shapes the OpenAPI document names under components.schemas, wherever they appear (fastify-
 * type-provider-zod turns a schema with an `id` in zod's global registry into a `$ref`; the same
 * registry holds every `.describe()` and `.meta()`, so it has to be that one). A body or answer that is none
 * of these is still named, after its operation (server/rest/openapi.ts). Add a shape here when
 * several operations share it; the name is part of the document (and of generated clients).
 */

const NAMES: Array<[z.ZodType, string]> = [
  [apiError, ERROR_SCHEMA],
  [messageAnswer, 'Message'],
  [sessionAnswer, 'Session'],
  [person, 'Person'],
  [publicUser, 'User'],
  [transaction, 'Transaction'],
  [transactionSummary, 'TransactionSummary'],
  [transactionForm, 'ChecklistItem'],
  [comment, 'Comment'],
  [waiver, 'Waiver'],
  [progress, 'Progress'],
  [formVersion, 'FormVersion'],
  [historyEntry, 'HistoryEntry'],
  [uploadAnswer, 'Upload'],
  [template, 'Template'],
  [libraryItem, 'LibraryItem'],
  [notification, 'Notification'],
  [notificationSettings, 'NotificationSettings'],
  [keyDate, 'KeyDate'],
  [calendarEvent, 'CalendarEvent'],
  [rejectionReason, 'RejectionReason'],
  [reviewQueueItem, 'ReviewQueueItem'],
];
/** Gives the shapes their names; idempotent (the app may be built more than once per process). */
export function nameOpenApiSchemas(): void {
  for (const [schema, id] of NAMES) {
    const meta = z.globalRegistry.get(schema);
    if (meta?.id === id) continue;
    z.globalRegistry.add(schema, { ...meta, id });
  }
}
