import { z } from 'zod';
import { idSchema } from './common';

/**
 * Document intake: what an upload answer says about the file beyond its bytes,
 * and the packet split. The pre-checks are warnings, never refusals (an encrypted PDF aside):
 * the agent sees them at once, the reviewer beside the document.
 */

export const UPLOAD_WARNING_CODES = ['empty-signature-fields', 'blank-pages', 'duplicate'] as const;
export const uploadWarning = z.object({
  code: z.enum(UPLOAD_WARNING_CODES),
  message: z.string(),
  /** blank-pages only: the page numbers, for a viewer to go to (and a split to carry over). */
  pages: z.array(z.number().int()).optional(),
});
export type UploadWarning = z.infer<typeof uploadWarning>;

/** A checklist item the document's text most likely is; `score` in (0, 1], best first. */
export const intakeSuggestion = z.object({ formId: idSchema, label: z.string(), score: z.number() });
export type IntakeSuggestion = z.infer<typeof intakeSuggestion>;

/** The images of one photographed document (POST /api/uploads/transactions/{id}/images). */
export const MAX_IMAGES_PER_UPLOAD = 30;
/** The longest name the photos' PDF may be given (the item's label and the day). */
export const MAX_PHOTOS_NAME = 120;
/** Each page image is scaled down so its longest side is at most this. */
export const MAX_IMAGE_SIDE_PX = 2000;

/** "1-3,5": pages of a PDF, 1-based, in ranges or one by one (checked by parsePageList). */
export const pageListText = z
  .string()
  .trim()
  .min(1, 'Pages are required')
  .max(200)
  .regex(/^\d+(-\d+)?(\s*,\s*\d+(-\d+)?)*$/, 'Pages look like 1-3,5');

export const MAX_SPLIT_PARTS = 50;
export const splitInput = z.object({
  id: idSchema,
  /** The key (or url) an upload of this transaction answered. */
  key: z.string().min(1).max(2048),
  parts: z
    .array(z.object({ formId: idSchema, pages: pageListText }))
    .min(1, 'Assign at least one page range to a document')
    .max(MAX_SPLIT_PARTS),
});
export type SplitInput = z.infer<typeof splitInput>;
