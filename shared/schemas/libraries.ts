import { z } from 'zod';
import { validation } from '../messages';
import { idSchema, pagingInput } from './common';

/** The forms and tutorials libraries (docs/API.md). */

const MAX_NAME = 200;
const name = z
  .string({ error: validation.nameRequired })
  .trim()
  .min(1, { error: validation.nameRequired })
  .max(MAX_NAME, { error: `Cannot exceed ${MAX_NAME} characters` });

/** Forms: the url or key answered by POST /api/uploads/forms. */
export const libraryFormInput = z.object({
  name,
  link: z
    .string({ error: validation.fileUploadRequired })
    .trim()
    .min(1, { error: validation.fileUploadRequired })
    .max(2000)
    .describe(
      'The `key` (or `url`) answered by POST /api/uploads/forms; stored as the key and listed as a signed download link',
    ),
});

/** Tutorials: an http(s) link kept as given. */
export const tutorialInput = z.object({
  name,
  link: z
    .string({ error: validation.linkRequired })
    .trim()
    .min(1, { error: validation.linkRequired, abort: true })
    .max(2000, { error: 'Link is too long', abort: true })
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      error: 'Enter a link starting with http:// or https://',
    })
    .meta({ pattern: '^https?://', description: 'An http(s) URL (at most 2000 characters), kept as given' }),
});

export const libraryItemId = z.object({ id: idSchema });
export const libraryFormUpdateInput = libraryFormInput.extend({ id: idSchema });
export const tutorialUpdateInput = tutorialInput.extend({ id: idSchema });

export const libraryItem = z.object({ _id: idSchema, name: z.string(), link: z.string() });
export type LibraryItem = z.infer<typeof libraryItem>;

export const libraryListInput = pagingInput;
export const librarySearchInput = pagingInput.extend({ query: z.string().trim().max(MAX_NAME).default('') });

export const formsPage = z.object({
  forms: z.array(libraryItem),
  pages: z.number().int(),
  total: z.number().int(),
});
export const tutorialsPage = z.object({
  tutorials: z.array(libraryItem),
  pages: z.number().int(),
  total: z.number().int(),
});
