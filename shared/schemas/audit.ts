import { z } from 'zod';
import { auditMessages } from '../audit-messages';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../constants';
import { idSchema } from './common';
import { isCalendarDay } from './key-dates';

/** The audit trail's hash chain, as GET /api/admin/audit/verify reports it. */
export const auditChainAnswer = z.object({
  /** Every event links to the one before it and hashes to what it holds, up to the chain's head. */
  valid: z.boolean(),
  /** Events in the trail. */
  events: z.number().int(),
  /** The first event whose link or hash does not match; null when valid or only the end is cut off. */
  firstBrokenId: idSchema.nullable(),
});
export type AuditChainAnswer = z.infer<typeof auditChainAnswer>;

// --- The audit log: GET /api/admin/audit and /api/admin/audit.csv ---

const instant = z.iso.datetime({ offset: true });

/** A bound of the log's range: a UTC day (the whole day) or an ISO 8601 instant with its zone. */
const rangeBound = z
  .string({ error: auditMessages.rangeBoundInvalid })
  .refine((value) => isCalendarDay(value) || instant.safeParse(value).success, {
    error: auditMessages.rangeBoundInvalid,
  })
  .meta({
    description:
      'A UTC day YYYY-MM-DD (from: its start; to: its end, both days included) or an ISO 8601 date and time with its zone (that instant, included)',
    anyOf: [{ format: 'date' }, { format: 'date-time' }],
  });

const DAY_MS = 86_400_000;

/**
 * The instants a range covers: `from` a day starts at its 00:00 UTC, `to` a day ends with it (both
 * days inclusive); an instant is itself, included. `toBefore` is the first instant after the range.
 */
export function auditRangeOf({ from, to }: { from?: string; to?: string }): {
  from?: Date;
  toBefore?: Date;
} {
  const start =
    from === undefined ? undefined : isCalendarDay(from) ? new Date(`${from}T00:00:00.000Z`) : new Date(from);
  const end =
    to === undefined
      ? undefined
      : isCalendarDay(to)
        ? new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS)
        : new Date(Date.parse(to) + 1);
  return { ...(start ? { from: start } : {}), ...(end ? { toBefore: end } : {}) };
}

/** An action or an entity's name, as the trail spells them (form.review, TransactionForm). */
const eventName = z
  .string({ error: auditMessages.nameInvalid })
  .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: auditMessages.nameInvalid });

/** The log's filters, each optional; every one given must hold. */
const auditFilterShape = {
  /** The person who acted (the creator of the API key it acted through). */
  actorId: idSchema.optional(),
  entity: eventName.optional(),
  entityId: idSchema.optional(),
  action: eventName.optional(),
  transactionId: idSchema.optional(),
  from: rangeBound.optional(),
  to: rangeBound.optional(),
};

const rangeInOrder = (value: { from?: string; to?: string }) => {
  const { from, toBefore } = auditRangeOf(value);
  return !from || !toBefore || from < toBefore;
};

/**
 * A page's place in the log: its last event's time (milliseconds since 1970, UTC) and seq. Opaque
 * to callers, who pass back the `nextCursor` they were given.
 */
export const AUDIT_CURSOR = /^[0-9]{1,15}-[1-9][0-9]{0,17}$/;

export const auditExportInput = z
  .object(auditFilterShape)
  .refine(rangeInOrder, { error: auditMessages.rangeReversed, path: ['to'] });
export type AuditExportInput = z.infer<typeof auditExportInput>;

export const auditLogInput = z
  .object({
    ...auditFilterShape,
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
    /** The `nextCursor` of the page before: the events older than its last. */
    cursor: z
      .string({ error: auditMessages.cursorInvalid })
      .regex(AUDIT_CURSOR, { error: auditMessages.cursorInvalid })
      .describe('The nextCursor of the page before: the events older than its last')
      .optional(),
  })
  .refine(rangeInOrder, { error: auditMessages.rangeReversed, path: ['to'] });
export type AuditLogInput = z.infer<typeof auditLogInput>;

export const auditActor = z.object({ _id: idSchema, name: z.string(), email: z.string() });

/** One event of the trail, as the log shows it. */
export const auditLogEvent = z.object({
  _id: idSchema,
  /** Its place in the hash chain: 1, 2, 3, ... in the order the events were written. */
  seq: z.number().int(),
  createdAt: z.iso.datetime(),
  /** Who acted; null for the portal itself (jobs, seeding). */
  actor: auditActor.nullable(),
  /** The API key the actor acted through. */
  apiKeyId: idSchema.nullable(),
  /** The agent a coordinator acted for. */
  onBehalfOf: idSchema.nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: idSchema,
  transactionId: idSchema.nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  hash: z.string(),
  prevHash: z.string(),
});
export type AuditLogEvent = z.infer<typeof auditLogEvent>;

export const auditLogPage = z.object({
  /** Newest first: by createdAt, then seq. */
  items: z.array(auditLogEvent),
  /** The `cursor` of the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditLogPage = z.infer<typeof auditLogPage>;
