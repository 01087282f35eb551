import { z } from 'zod';
import { officeMessages } from '../messages';
import { idSchema } from './common';

/**
 * Offices: branches of the brokerage. Each has its admins (an admin with an office sees only that
 * office), a review target (a document waiting longer is overdue) and how many years its records
 * are kept.
 */

export const OFFICE_DEFAULTS = { reviewTargetHours: 24, retentionYears: 7 } as const;

export const office = z.object({
  _id: idSchema,
  name: z.string(),
  reviewTargetHours: z.number().int(),
  retentionYears: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type Office = z.infer<typeof office>;

export const officeWithCount = office.extend({
  /** Active agents (role user) of the office. */
  agentCount: z.number().int(),
});
export const officesAnswer = z.array(officeWithCount);
export type OfficesAnswer = z.infer<typeof officesAnswer>;

/** An office as other answers name it. */
export const officeRef = z.object({ _id: idSchema, name: z.string() });
export type OfficeRef = z.infer<typeof officeRef>;

const officeName = z
  .string({ error: officeMessages.nameRequired })
  .trim()
  .min(1, { error: officeMessages.nameRequired })
  .max(100, { error: 'Cannot exceed 100 characters' });
/** Hours, up to 90 days. */
const reviewTargetHours = z.number().int().min(1).max(2160);
const retentionYears = z.number().int().min(1).max(100);

export const createOfficeInput = z.object({
  name: officeName,
  reviewTargetHours: reviewTargetHours.optional(),
  retentionYears: retentionYears.optional(),
});
export type CreateOfficeInput = z.infer<typeof createOfficeInput>;

export const updateOfficeInput = z.object({
  id: idSchema,
  name: officeName.optional(),
  reviewTargetHours: reviewTargetHours.optional(),
  retentionYears: retentionYears.optional(),
});
export type UpdateOfficeInput = z.infer<typeof updateOfficeInput>;

export const officeIdInput = z.object({ id: idSchema });
